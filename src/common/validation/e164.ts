import { ValidateBy, ValidationOptions } from 'class-validator';

/** ITU-T E.164: a plus sign, a country code that does not start with 0, at most 15 digits. */
const E164 = /^\+[1-9]\d{1,14}$/;

export function isE164(value: string): boolean {
  return E164.test(value);
}

/** A phone number in E.164 form (`+14155550123`). */
export const IsE164 = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isE164',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isE164(value),
        defaultMessage: () => 'must be an E.164 phone number (e.g. +14155550123)',
      },
    },
    options,
  );
