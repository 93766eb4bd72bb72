import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export interface SortOrder<F extends string> {
  field: F;
  direction: 'ASC' | 'DESC';
}

function sortValues(fields: readonly string[]): string[] {
  return fields.flatMap((field) => [field, `-${field}`]);
}

/** A `sort` query parameter limited to `fields`, each optionally prefixed with `-`. */
export const IsSort = (fields: readonly string[], defaultSort: string) =>
  applyDecorators(
    ApiPropertyOptional({ enum: sortValues(fields), default: defaultSort }),
    IsOptional(),
    IsIn(sortValues(fields), { message: `must be one of: ${sortValues(fields).join(', ')}` }),
  );

export function parseSort<F extends string>(sort: string): SortOrder<F> {
  return sort.startsWith('-')
    ? { field: sort.slice(1) as F, direction: 'DESC' }
    : { field: sort as F, direction: 'ASC' };
}
