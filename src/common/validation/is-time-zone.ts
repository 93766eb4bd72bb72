import { ValidateBy, ValidationOptions } from 'class-validator';

function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 64) {
    return false;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone such as `Africa/Lagos` or `UTC`. */
export const IsTimeZone = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isTimeZone',
      validator: {
        validate: isTimeZone,
        defaultMessage: () => 'must be an IANA time zone such as Africa/Lagos',
      },
    },
    options,
  );
