import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import {
  IsPlainObject,
  IsStringOrObject,
  OptionalNotNull,
  STRING_OR_OBJECT_SCHEMA,
} from './decorators';
import { LIMITS } from './limits';

type DocOptions = Omit<ApiPropertyOptions, 'type' | 'maxItems' | 'nullable' | 'required'>;

/**
 * An optional array (left out, not null) of at most `LIMITS.array` elements, each checked by
 * `eachElement`. Listed innermost first, as a stack of decorators is applied: the messages keep
 * their order.
 */
const OptionalArray = (docs: ApiPropertyOptions, ...eachElement: PropertyDecorator[]) =>
  applyDecorators(
    ...eachElement,
    ArrayMaxSize(LIMITS.array),
    IsArray(),
    OptionalNotNull(),
    ApiPropertyOptional(docs),
  );

/** An optional array of JSON objects, each validated as a `dto`. */
export const ArrayOf = (dto: new () => object, docs: DocOptions = {}) =>
  OptionalArray(
    { type: [dto], maxItems: LIMITS.array, ...docs },
    Type(() => dto),
    ValidateNested({ each: true }),
    IsPlainObject({ each: true }),
  );

/** An optional array of free-form elements: strings or JSON objects. */
export const ArrayOfStringOrObject = () =>
  OptionalArray(
    { type: 'array', items: STRING_OR_OBJECT_SCHEMA, maxItems: LIMITS.array },
    IsStringOrObject({ each: true }),
  );
