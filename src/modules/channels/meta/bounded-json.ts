/**
 * Reading a hostile, already parsed JSON body at fixed paths only: no recursion (so no depth can
 * exhaust the stack), own properties only (so `__proto__`, `constructor`… never read what
 * Object.prototype holds), and strings checked for type and length before use.
 */
export type Json = Record<string, unknown>;

export const MAX_ITEMS = 100;
export const MAX_TEXT = 4096;
export const MAX_ID = 256;
const MAX_URL = 4096;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[key]` when it is an own property of a plain object, else undefined. */
export function field(value: unknown, key: string): unknown {
  return isRecord(value) && Object.prototype.hasOwnProperty.call(value, key)
    ? value[key]
    : undefined;
}

/** The own property `key` when it is an array, else an empty one. */
export function list(value: unknown, key: string): readonly unknown[] {
  const found = field(value, key);
  return Array.isArray(found) ? found : [];
}

/** Cuts `text` to `max` UTF-16 units without leaving half a surrogate pair behind. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** PostgreSQL's text columns refuse U+0000. */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.split('\u0000').join('') : text;
}

/** A non-empty string of text (cut to `max`), else null. */
export function text(value: unknown, max = MAX_TEXT): string | null {
  if (typeof value !== 'string') {
    return null;
  }
  const cleaned = withoutNul(truncate(value, max + 64)).trim();
  return cleaned === '' ? null : truncate(cleaned, max);
}

/**
 * An identifier: a non-empty string (or a safe integer, as some ids arrive) of at most MAX_ID
 * characters without whitespace or control characters. Longer ones are refused, not cut: two
 * different ids must never become the same one.
 */
export function id(value: unknown): string | null {
  const raw = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_ID) {
    return null;
  }
  return /^[\x21-\x7e]+$/.test(raw) ? raw : null;
}

/** An http(s) URL of at most 4,096 characters, else null. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_URL) {
    return null;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/** A Unix time (seconds or milliseconds, number or digit string) between 2000 and 2200. */
export function unixTime(value: unknown, unit: 'seconds' | 'milliseconds'): Date | null {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,16}$/.test(value)
        ? Number(value)
        : NaN;
  const ms = unit === 'seconds' ? number * 1000 : number;
  return Number.isFinite(ms) && ms >= EARLIEST && ms <= LATEST ? new Date(ms) : null;
}

/** A finite number, or a numeric string as some payloads carry, else null. */
export function finiteNumber(value: unknown): number | null {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.length <= 32
        ? Number(value)
        : NaN;
  return Number.isFinite(number) && value !== '' ? number : null;
}

/** "lat,long name": the text a location message is read as. */
export function locationText(latitude: unknown, longitude: unknown, name: unknown): string | null {
  const lat = finiteNumber(latitude);
  const long = finiteNumber(longitude);
  if (lat === null || long === null || Math.abs(lat) > 90 || Math.abs(long) > 180) {
    return null;
  }
  const label = text(name, 200);
  return label === null ? `${lat},${long}` : `${lat},${long} ${label}`;
}
