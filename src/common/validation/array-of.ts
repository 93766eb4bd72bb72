import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { IsPlainObject, OptionalNotNull } from './decorators';
import { LIMITS } from './limits';

type DocOptions = Omit<ApiPropertyOptions, 'type' | 'maxItems' | 'nullable' | 'required'>;

/**
 * An optional array (left out, not null) of at most `LIMITS.array` JSON objects, each validated
 * as a `dto`.
 */
export const ArrayOf = (dto: new () => object, docs: DocOptions = {}) =>
  // Listed innermost first, as a stack of decorators is applied: the messages keep their order.
  applyDecorators(
    Type(() => dto),
    ValidateNested({ each: true }),
    IsPlainObject({ each: true }),
    ArrayMaxSize(LIMITS.array),
    IsArray(),
    OptionalNotNull(),
    ApiPropertyOptional({ type: [dto], maxItems: LIMITS.array, ...docs }),
  );
