import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';

/** May be left out, but not sent as null (unlike `@IsOptional()`, which lets null through). */
export const OptionalNotNull = () => ValidateIf((_object, value) => value !== undefined);

const MAX_JSON_ITEM_STRING = 2000;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The OpenAPI schema of what IsStringOrObject accepts. */
export const STRING_OR_OBJECT_SCHEMA = {
  oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
};

/** A string (of at most `maxLength` characters) or a JSON object, e.g. a free-form list element. */
export const IsStringOrObject = (options?: ValidationOptions, maxLength = MAX_JSON_ITEM_STRING) =>
  ValidateBy(
    {
      name: 'isStringOrObject',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.length <= maxLength) || isPlainObject(value),
        defaultMessage: () =>
          `${options?.each ? 'each value ' : ''}must be a string of at most ${maxLength} characters or an object`,
      },
    },
    options,
  );

/** A JSON object or array. */
export const IsObjectOrArray = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isObjectOrArray',
      validator: {
        validate: (value: unknown) => isPlainObject(value) || Array.isArray(value),
        defaultMessage: () => 'must be a JSON object or array',
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
        validate: isPlainObject,
        defaultMessage: () => `${options?.each ? 'each value ' : ''}must be a JSON object`,
      },
    },
    options,
  );

function hasNoCredentials(value: unknown): boolean {
  if (typeof value !== 'string') {
    return true;
  }
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  } catch {
    return true;
  }
}

/** A URL without a user name or password: they would be stored, sent and echoed in the clear. */
export const HasNoUrlCredentials = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'hasNoUrlCredentials',
      validator: {
        validate: hasNoCredentials,
        defaultMessage: () => 'must not carry a user name or password',
      },
    },
    options,
  );
