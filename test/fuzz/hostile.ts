import fc from 'fast-check';

/** Strings that break naive handling: lone surrogates, bidi overrides, zero-width, emoji, NUL. */
export const UNICODE_EDGES = [
  '\uD800',
  'a\uDFFFb',
  '\uD83D',
  '\u202Egnp.exe',
  'zero\u200Bwidth\u200D',
  '\uFEFFbom',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'Z̴̡̛̞ả̸̧l̷g̴o',
  'line\u2028sep\u2029',
  '𝕳𝖊𝖑𝖑𝖔',
  'İıß',
  'nul\u0000byte',
  '\u0000',
  '\r\n\t',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%s%n%x',
  '../../etc/passwd',
  '\\u0000',
  ' ',
  '',
];

/** JSON number tokens JSON.stringify never writes: beyond 2^53, overflowing, -0, or invalid. */
export const RAW_NUMBERS = [
  '9007199254740993',
  '-9007199254740993',
  '123456789012345678901234567890',
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '0.1',
  '01',
  '.5',
  'NaN',
  'Infinity',
  '0x10',
];

export const NAN_ISH_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e400',
  '9007199254740993',
  'null',
  'undefined',
  'true',
];

/** Path segments, already percent-encoded (or deliberately not), that are never a valid id. */
export const GARBAGE_SEGMENTS: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map(encodeURIComponent),
  fc
    .string({ maxLength: 40 })
    .filter((text) => text.length > 0)
    .map(encodeURIComponent),
  fc.constantFrom(
    '..',
    '%2e%2e',
    '%00',
    'abc%00def',
    '%ZZ',
    '%',
    '%C0%AF',
    '%ED%A0%80',
    '%E2%80%AE',
    'null',
    'undefined',
    '0',
    '-1',
    '9007199254740993',
    '%20',
    '%2F',
    encodeURIComponent(UNICODE_EDGES[6]),
    'x'.repeat(5000),
    "'%20OR%201=1--",
  ),
);

export const BAD_IDEMPOTENCY_KEYS = [
  '',
  ' ',
  'a'.repeat(256),
  'has space',
  'tab\tkey',
  'caf\u00e9',
  'x'.repeat(5000),
];
export const BAD_REQUEST_IDS = ['', 'a'.repeat(129), 'has space', 'caf\u00e9', 'x'.repeat(8000)];

export const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  ';;;',
  '',
];

export const INVALID_JSON = [
  '{',
  '{"name": "a",}',
  "{'name': 'a'}",
  '{"name": "a"} trailing',
  'null',
  '"a string"',
  '42',
  'true',
  '[]',
  '[{}]',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '\uFEFF{}',
  ' ',
];

/** `{"a":{"a":…}}` or `[[[…]]]` `depth` levels deep, as text (too deep for JSON.stringify). */
export function deeplyNested(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object'
    ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    : `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** A value of some other JSON type than `value`'s. */
export function wrongTypeFor(value: unknown, pick: number): unknown {
  const candidates: unknown[] = [
    42,
    -1.5,
    true,
    null,
    'text',
    [],
    {},
    [1, 'two'],
    { nested: { deeper: true } },
  ];
  const others = candidates.filter(
    (candidate) =>
      typeof candidate !== typeof value || Array.isArray(candidate) !== Array.isArray(value),
  );
  return others[pick % others.length];
}
