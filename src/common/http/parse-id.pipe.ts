import { Injectable, PipeTransform } from '@nestjs/common';
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
