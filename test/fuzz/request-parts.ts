import fc from 'fast-check';
import { BODY_MUTATION_NAMES, BODY_MUTATIONS, SerializedBody } from './body-mutations';
import {
  BAD_IDEMPOTENCY_KEYS,
  BAD_REQUEST_IDS,
  GARBAGE_SEGMENTS,
  INVALID_JSON,
  UNICODE_EDGES,
} from './hostile';
import { OpenApiDocument, Operation, resolve } from '../support/openapi';
import { Resources, slotOf } from './resources';
import { arbitraryFor, Hints } from './schema-arbitrary';
import { Keys } from './seed';

const SHARED_IDEMPOTENCY_KEYS = [
  'fuzz-key-1',
  'fuzz-key-2',
  'fuzz-key-3',
  'fuzz-key-4',
  'fuzz-key-5',
];

/** One part of a request (its credentials, path, query…) and what makes it unusual. */
interface Part<T> {
  value: T;
  tag?: string;
}

export function authArbitrary(keys: Keys): fc.Arbitrary<Part<Record<string, string>>> {
  const variants: Part<Record<string, string>>[] = [
    { tag: 'auth:none', value: {} },
    { tag: 'auth:other-team', value: { 'X-Api-Key': keys.other } },
    { tag: 'auth:read-only', value: { 'X-Api-Key': keys.readOnly } },
    { tag: 'auth:expired', value: { Authorization: `Bearer ${keys.expired}` } },
    { tag: 'auth:revoked', value: { 'X-Api-Key': keys.revoked } },
    { tag: 'auth:not-sk', value: { 'X-Api-Key': 'not-a-key' } },
    { tag: 'auth:empty-bearer', value: { Authorization: 'Bearer' } },
    { tag: 'auth:basic', value: { Authorization: 'Basic dXNlcjpwYXNz' } },
    { tag: 'auth:lowercase-scheme', value: { Authorization: `bearer ${keys.own}` } },
    {
      tag: 'auth:two-keys',
      value: { Authorization: `Bearer ${keys.own}`, 'X-Api-Key': keys.other },
    },
    { tag: 'auth:huge', value: { 'X-Api-Key': `sk_${'a'.repeat(10_000)}` } },
  ];
  const limited: Part<Record<string, string>> = {
    tag: 'auth:agent-limited',
    value: { 'X-Api-Key': keys.agentLimited ?? keys.own },
  };
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant({ value: { 'X-Api-Key': keys.own } }) },
    { weight: 4, arbitrary: fc.constant({ value: { Authorization: `Bearer ${keys.own}` } }) },
    { weight: 4, arbitrary: fc.constantFrom(...variants) },
    { weight: 1, arbitrary: fc.constant(limited) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 24, maxLength: 48 }).map((bytes) => ({
        tag: 'auth:unknown-key',
        value: { 'X-Api-Key': `sk_${Buffer.from(bytes).toString('base64url')}` },
      })),
    },
  );
}

/** How a widget request presents its web chat's key and origin: mostly as its pages do. */
export type WidgetAuth = { index: number; variant: string };

const WIDGET_AUTH_VARIANTS = [
  'auth:none',
  'auth:unknown-pk',
  'auth:sk-key',
  'auth:lowercase-scheme',
  'origin:none',
  'origin:other',
  'origin:null',
  'origin:trailing-slash',
];

export function widgetAuthArbitrary(): fc.Arbitrary<WidgetAuth> {
  return fc.record({
    index: fc.nat(),
    variant: fc.oneof(
      { weight: 16, arbitrary: fc.constant('') },
      { weight: 4, arbitrary: fc.constantFrom(...WIDGET_AUTH_VARIANTS) },
    ),
  });
}

/** The headers of a widget request to the chat `key` allowing `origin`, spoilt as `variant` says. */
export function widgetHeaders(
  chat: { key: string; origin: string },
  variant: string,
  keys: Keys,
): Record<string, string> {
  const good = { Authorization: `Bearer ${chat.key}`, Origin: chat.origin };
  switch (variant) {
    case 'auth:none':
      return { Origin: chat.origin };
    case 'auth:unknown-pk':
      return { ...good, Authorization: `Bearer pk_${'x'.repeat(32)}` };
    case 'auth:sk-key':
      return { ...good, Authorization: `Bearer ${keys.own}` };
    case 'auth:lowercase-scheme':
      return { ...good, Authorization: `bearer ${chat.key}` };
    case 'origin:none':
      return { Authorization: good.Authorization };
    case 'origin:other':
      return { ...good, Origin: 'https://evil.example' };
    case 'origin:null':
      return { ...good, Origin: 'null' };
    case 'origin:trailing-slash':
      return { ...good, Origin: `${chat.origin}/` };
    default:
      return good;
  }
}

interface PathPart {
  url: string;
  values: Record<string, string>;
  tag?: string;
}

export function pathArbitrary(operation: Operation, resources: Resources): fc.Arbitrary<PathPart> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  if (names.length === 0) {
    return fc.constant({ url: operation.path, values: {} });
  }
  // A parameter with a closed set of values (a channel type) takes one of them.
  const enums = Object.fromEntries(
    operation.parameters
      .filter((p) => p.in === 'path' && Array.isArray(p.schema.enum))
      .map((p) => [p.name, p.schema.enum as string[]]),
  );
  const slot = slotOf(operation.path)!;
  return fc
    .record({
      roll: fc.nat(99),
      index: fc.nat(),
      which: fc.nat(),
      garbage: GARBAGE_SEGMENTS,
      unknown: fc.uuid(),
    })
    .map(({ roll, index, which, garbage, unknown }) => {
      const binding = resources.pick(slot, roll < 85 ? 'own' : 'other', index);
      const values = { ...binding?.values };
      const encoded: Record<string, string> = {};
      let tag = binding ? `path:${binding.owner}` : 'path:unknown';
      for (const name of names) {
        if (values[name] === undefined && enums[name]) {
          values[name] = enums[name][index % enums[name].length];
        } else if (values[name] === undefined) {
          values[name] = unknown;
          tag = 'path:unknown';
        }
        encoded[name] = encodeURIComponent(values[name]);
      }
      if (roll >= 92) {
        encoded[names[which % names.length]] = garbage;
        tag = `path:garbage ${garbage.slice(0, 40)}`;
      }
      return {
        url: operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encoded[name]),
        values,
        tag,
      };
    });
}

const HOSTILE_QUERY_VALUES = [
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '9007199254740993',
  '',
  '%20',
  '0x10',
  '%EF%BC%91',
  '101',
  '1000',
  'NaN',
  'yes',
  'TRUE',
  'unknown',
  '--name',
  '%00',
  '%ZZ',
  encodeURIComponent(UNICODE_EDGES[4]),
  'x'.repeat(10_000),
];

/** A name no route takes: the strict query rule (docs/api.md §1) refuses it everywhere. */
export const UNKNOWN_QUERY_PARAMETER = 'unknown_param';

export function queryArbitrary(
  document: OpenApiDocument,
  operation: Operation,
  hints: Hints,
): fc.Arbitrary<Part<string>> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const model = Object.fromEntries(
    parameters.map((p) => [
      p.name,
      // A query parameter may have a hint of its own: a body's `agent_id` may be null, a query's not.
      hints(`query.${p.name}`) ?? hints(p.name) ?? arbitraryFor(document, p.schema, hints),
    ]),
  );
  const valid = fc
    .record(model, { requiredKeys: parameters.filter((p) => p.required).map((p) => p.name) })
    .map((query) =>
      Object.entries(query)
        .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
        .join('&'),
    );
  const names = [...parameters.map((p) => p.name), UNKNOWN_QUERY_PARAMETER];
  const hostile = fc
    .record({
      name: fc.constantFrom(...names),
      value: fc.constantFrom(...HOSTILE_QUERY_VALUES),
      form: fc.nat(3),
    })
    .map(
      ({ name, value, form }) =>
        [`${name}=${value}`, `${name}=1&${name}=2`, `${name}[a]=1`, `${name}[]=${value}`][form],
    );
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((value) => ({ value })) },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, hostile).map(([query, extra]) => ({
        value: [query, extra].filter(Boolean).join('&'),
        tag: `query:${extra.slice(0, 40)}`,
      })),
    },
  );
}

export function headersArbitrary(operation: Operation): fc.Arbitrary<Part<Record<string, string>>> {
  const isWrite = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method);
  const idempotencyKey: fc.Arbitrary<Part<Record<string, string>>> = isWrite
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constant({ value: {} }) },
        { weight: 2, arbitrary: fc.uuid().map((key) => ({ value: { 'Idempotency-Key': key } })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(...SHARED_IDEMPOTENCY_KEYS)
            .map((key) => ({ value: { 'Idempotency-Key': key }, tag: 'idempotency:shared' })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(...BAD_IDEMPOTENCY_KEYS).map((key) => ({
            value: { 'Idempotency-Key': key },
            tag: `idempotency:bad ${key.slice(0, 12)}`,
          })),
        },
      )
    : fc.constant({ value: {} });
  const extra: fc.Arbitrary<Part<Record<string, string>>> = fc.oneof(
    { weight: 30, arbitrary: fc.constant({ value: {} }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...BAD_REQUEST_IDS)
        .map((id) => ({ value: { 'X-Request-Id': id }, tag: `request-id:${id.slice(0, 12)}` })),
    },
    {
      weight: 2,
      arbitrary: fc
        .stringMatching(/^[\x21-\x7e]{1,128}$/)
        .map((id) => ({ value: { 'X-Request-Id': id } })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        value: { 'Last-Event-ID': 'garbage' },
        tag: 'last-event-id:garbage',
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        value: { 'Last-Event-ID': new Date(0).toISOString() },
        tag: 'last-event-id:epoch',
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        value: { 'X-Fuzz-Filler': 'a'.repeat(20_000) },
        tag: 'header:oversized',
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        value: { Accept: 'text/html;q=0.9, */*;q=0' },
        tag: 'header:accept',
      }),
    },
  );
  return fc.tuple(idempotencyKey, extra).map(([a, b]) => ({
    value: { ...a.value, ...b.value },
    tag: [a.tag, b.tag].filter(Boolean).join(' ') || undefined,
  }));
}

export function bodyArbitrary(
  document: OpenApiDocument,
  operation: Operation,
  hints: Hints,
): fc.Arbitrary<SerializedBody | undefined> {
  if (!operation.body) {
    return fc.oneof(
      { weight: 19, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...INVALID_JSON, '{"unexpected":true}')
          .map((body) => ({ body, tag: 'body:on-bodiless' })),
      },
    );
  }
  const required: string[] = resolve(document, operation.body).required ?? [];
  const picks = fc.record({ a: fc.nat(), b: fc.nat() });
  // An operation whose fields depend on each other may have whole bodies as a hint, now and then.
  const generated = arbitraryFor(document, operation.body, hints);
  const examples = hints(`body ${operation.path}`);
  return fc
    .tuple(
      examples
        ? fc.oneof({ weight: 3, arbitrary: generated }, { weight: 1, arbitrary: examples })
        : generated,
      fc.nat(BODY_MUTATION_NAMES.length * 2),
      picks,
    )
    .map(([body, roll, pick]) => {
      const mutation = BODY_MUTATION_NAMES[roll];
      return mutation
        ? BODY_MUTATIONS[mutation](body, pick, required)
        : { body: JSON.stringify(body), tag: '' };
    });
}

/** Property names whose values must be real (ids) or safe (URLs that never leave the machine). */
