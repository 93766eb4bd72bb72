import { ValidateBy, ValidationOptions } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s/?#\\]+[^\s\\]*$/i;

/** An absolute http(s) URL: no other scheme (`javascript:`, `data:`…) and no backslashes. */
function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !HTTP_URL.test(value)) {
    return false;
  }
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

export const IsHttpUrl = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: isHttpUrl,
        defaultMessage: () => 'must be an http(s) URL',
      },
    },
    options,
  );
