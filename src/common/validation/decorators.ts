import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';

/** May be left out, but not sent as null (unlike `@IsOptional()`, which lets null through). */
export const OptionalNotNull = () => ValidateIf((_object, value) => value !== undefined);

export const MAX_JSON_ITEM_STRING = 2000;

/** An element of a free-form list: a string or a JSON object. */
export const IsStringOrObject = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isStringOrObject',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.length <= MAX_JSON_ITEM_STRING) ||
          (value !== null && typeof value === 'object' && !Array.isArray(value)),
        defaultMessage: () =>
          `each value must be a string of at most ${MAX_JSON_ITEM_STRING} characters or an object`,
      },
    },
    options,
  );

/** A JSON object, not an array and not null. */
export const IsPlainObject = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isPlainObject',
      validator: {
        validate: (value: unknown) =>
          value !== null && typeof value === 'object' && !Array.isArray(value),
        defaultMessage: () => 'must be a JSON object',
      },
    },
    options,
  );
