import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
  IsOptional,
  ValidateBy,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

// Each stack lists its decorators in the order TypeScript applied them when they were written one
// above the other: that order is the order of the problems in a startup error line.

/** A whole number in `[min, max]`. */
export function IntegerSetting({ min, max }: { min: number; max?: number }) {
  return applyDecorators(
    ...(max === undefined ? [] : [Max(max)]),
    Min(min),
    IsInt(),
    Transform(toInt),
  );
}

/** `true`/`1` or `false`/`0`. */
export function BooleanSetting() {
  return applyDecorators(IsBoolean(), Transform(toBool));
}

/** A setting that may be unset or empty; when given, it must pass `check` (any string by default). */
export function OptionalSetting(check: PropertyDecorator = IsString()) {
  return applyDecorators(check, IsOptional(), Transform(emptyToUndefined));
}

export const IsPhoneNumber = () =>
  Matches(/^\+?[0-9]{6,15}$/, { message: 'must be a phone number in international format' });

/** What the mailer reads of SMTP_URL: a URL that parses, with a host and decodable credentials. */
function isSmtpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !/^smtps?:\/\//.test(value)) {
    return false;
  }
  try {
    const url = new URL(value);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
    return url.hostname !== '';
  } catch {
    return false;
  }
}

/** An IANA time zone name the runtime knows, such as `Europe/Paris` or `UTC`. */
function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || value === '') {
    return false;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const IsTimeZone = () =>
  ValidateBy({
    name: 'isTimeZone',
    validator: {
      validate: isTimeZone,
      defaultMessage: () => 'must be an IANA time zone name such as UTC or Africa/Lagos',
    },
  });

export const IsSmtpUrl = () =>
  ValidateBy({
    name: 'isSmtpUrl',
    validator: {
      validate: isSmtpUrl,
      defaultMessage: () =>
        'must be an smtp:// or smtps:// URL such as smtp://user:pass@host:587 ' +
        '(a valid port, special characters of the credentials percent-encoded)',
    },
  });
