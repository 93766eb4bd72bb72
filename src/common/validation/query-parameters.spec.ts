import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { queryParametersOf } from './query-parameters';

class FilterDto {
  status?: string;
}

@Controller()
class Routes {
  @Get('dto')
  withDto(@Query() _query: FilterDto): void {}

  @Get('named/:id')
  named(@Param('id') _id: string, @Query('page') _page: string): void {}

  @Get('documented')
  @ApiQuery({ name: 'ticket', required: true })
  documented(): void {}

  @Get('none/:id')
  none(@Param('id') _id: string): void {}
}

const of = (handler: keyof Routes, anyQuery = false) =>
  queryParametersOf(Routes, Routes.prototype[handler], anyQuery);

describe('queryParametersOf', () => {
  it('leaves a route with a @Query() DTO to the validation pipe', () => {
    expect(of('withDto')).toEqual({ kind: 'dto' });
  });

  it("names @Query('x') arguments and @ApiQuery parameters", () => {
    expect(of('named')).toEqual({ kind: 'named', names: new Set(['page']) });
    expect(of('documented')).toEqual({ kind: 'named', names: new Set(['ticket']) });
  });

  it('takes no parameter on a route that reads none', () => {
    expect(of('none')).toEqual({ kind: 'named', names: new Set() });
  });

  it('takes any on a route marked so', () => {
    expect(of('none', true)).toEqual({ kind: 'any' });
  });
});
