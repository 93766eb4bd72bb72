import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { canonicalId, isId } from '../ids';
import { Errors } from './api-error';

/** A path id that cannot exist is simply not found (docs/api.md §1). */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isId(value)) {
      throw Errors.notFound();
    }
    return canonicalId(value);
  }
}

/** A path parameter that holds an id, checked and made canonical by ParseIdPipe. */
export const IdParam = (name: string): ParameterDecorator => Param(name, ParseIdPipe);
