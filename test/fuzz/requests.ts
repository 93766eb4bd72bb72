import fc from 'fast-check';
import { BODY_MUTATION_NAMES, BODY_MUTATIONS, SerializedBody } from './body-mutations';
import {
  BAD_IDEMPOTENCY_KEYS,
  BAD_REQUEST_IDS,
  GARBAGE_SEGMENTS,
  INVALID_JSON,
  UNICODE_EDGES,
} from './hostile';
import { OpenApiDocument, Operation, resolve } from './openapi';
import { API, Resources, slotOf } from './resources';
import { arbitraryFor, Hints } from './schema-arbitrary';
import { Keys } from './seed';

export interface FuzzRequest {
  operation: Operation;
  method: string;
  /** Path and query, percent-encoded (or deliberately not). */
  url: string;
  /** The real ids the path was built from (before any garbage replaced one). */
  pathValues: Record<string, string>;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What makes this request unusual, for the report. */
  tags: string[];
  /** A stream request whose ticket is issued just before sending, for this agent and conversation. */
  freshTicketFor?: { agentId: string; conversationId: string };
}

export const FRESH_TICKET = '__fresh_ticket__';
const SHARED_IDEMPOTENCY_KEYS = [
  'fuzz-key-1',
  'fuzz-key-2',
  'fuzz-key-3',
  'fuzz-key-4',
  'fuzz-key-5',
];

interface Part<T> {
  value: T;
  tag?: string;
}

function authArbitrary(keys: Keys): fc.Arbitrary<Part<Record<string, string>>> {
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
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant({ value: { 'X-Api-Key': keys.own } }) },
    { weight: 4, arbitrary: fc.constant({ value: { Authorization: `Bearer ${keys.own}` } }) },
    { weight: 4, arbitrary: fc.constantFrom(...variants) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 24, maxLength: 48 }).map((bytes) => ({
        tag: 'auth:unknown-key',
        value: { 'X-Api-Key': `sk_${Buffer.from(bytes).toString('base64url')}` },
      })),
    },
  );
}

interface PathPart {
  url: string;
  values: Record<string, string>;
  tag?: string;
}

function pathArbitrary(operation: Operation, resources: Resources): fc.Arbitrary<PathPart> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  if (names.length === 0) {
    return fc.constant({ url: operation.path, values: {} });
  }
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
        if (values[name] === undefined) {
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

function queryArbitrary(
  document: OpenApiDocument,
  operation: Operation,
  hints: Hints,
): fc.Arbitrary<Part<string>> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const model = Object.fromEntries(
    parameters.map((p) => [p.name, hints(p.name) ?? arbitraryFor(document, p.schema, hints)]),
  );
  const valid = fc
    .record(model, { requiredKeys: parameters.filter((p) => p.required).map((p) => p.name) })
    .map((query) =>
      Object.entries(query)
        .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
        .join('&'),
    );
  const names = [...parameters.map((p) => p.name), 'unknown_param'];
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

function headersArbitrary(operation: Operation): fc.Arbitrary<Part<Record<string, string>>> {
  const isWrite = ['POST', 'PATCH', 'DELETE'].includes(operation.method);
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

function bodyArbitrary(
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
  return fc
    .tuple(
      arbitraryFor(document, operation.body, hints),
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
export function hintsFor(resources: Resources): Hints {
  const workflowIds = resources.idArbitrary(`${API}/workflows/{id}`, 'id');
  const conversationIds = resources.idArbitrary(
    `${API}/agents/{agentId}/conversations/{conversationId}`,
    'conversationId',
  );
  const mixed = (real: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 6, arbitrary: real },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.string() },
    );
  // The run allows private addresses: every URL points at a closed port here, or is malformed.
  const urls = fc.constantFrom(
    'http://127.0.0.1:9/x',
    'https://127.0.0.1:9/api',
    'http://localhost:9/',
    'https://[::1]:9/mcp',
    'ftp://127.0.0.1:9/',
    'not a url',
    'http://',
    'javascript:alert(1)',
    'http://0x7f000001:9/',
  );
  const byName: Record<string, fc.Arbitrary<unknown>> = {
    workflow_id: mixed(workflowIds),
    source_workflow_id: mixed(workflowIds),
    conversation_id: mixed(conversationIds),
    action_ids: fc.array(mixed(resources.idArbitrary('actions', 'actionId')), { maxLength: 5 }),
    url: urls,
    base_url: urls,
    server_url: urls,
    test_endpoint: urls,
    video_url: urls,
    youtubeUrl: urls,
    logo: urls,
    app_icon: urls,
    url_template: fc.constantFrom(
      '/orders/{order_id}',
      'http://127.0.0.1:9/x',
      '{{x}}',
      '/a/{b}/{c}',
      '',
    ),
    timezone: fc.constantFrom('Africa/Lagos', 'UTC', 'Mars/Olympus', 'Etc/GMT+14', ''),
    channel_user_id: fc.oneof(
      fc.constantFrom('visitor-1', 'visitor-2'),
      fc.string({ minLength: 1, maxLength: 20 }),
    ),
    currency: fc.constantFrom('NGN', 'USD', 'XXXX', ''),
    app_slug: fc.constantFrom('google_drive', 'slack', 'notion', 'Not A Slug!', ''),
    ticket: fc.oneof(
      { weight: 3, arbitrary: fc.constant(FRESH_TICKET) },
      { weight: 1, arbitrary: fc.string({ maxLength: 64 }) },
    ),
  };
  return (name) => byName[name];
}

export interface GeneratorContext {
  document: OpenApiDocument;
  resources: Resources;
  keys: Keys;
  hints: Hints;
}

/** Requests for one operation: mostly plausible, often hostile in one or two ways. */
export function requestArbitrary(
  operation: Operation,
  context: GeneratorContext,
): fc.Arbitrary<FuzzRequest> {
  const { document, resources, keys, hints } = context;
  return fc
    .record({
      auth: authArbitrary(keys),
      path: pathArbitrary(operation, resources),
      query: queryArbitrary(document, operation, hints),
      headers: headersArbitrary(operation),
      body: bodyArbitrary(document, operation, hints),
    })
    .map(({ auth, path, query, headers, body }) => {
      const request: FuzzRequest = {
        operation,
        method: operation.method,
        url: query.value ? `${path.url}?${query.value}` : path.url,
        pathValues: path.values,
        headers: { ...auth.value, ...headers.value },
        tags: [auth.tag, path.tag, query.tag, headers.tag, body?.tag].filter((tag): tag is string =>
          Boolean(tag),
        ),
      };
      if (body) {
        request.body = body.body;
        const contentType = body.contentType ?? 'application/json';
        if (contentType) {
          request.headers['Content-Type'] = contentType;
        }
      }
      if (query.value.includes(`ticket=${FRESH_TICKET}`)) {
        request.freshTicketFor = {
          agentId: path.values.agentId,
          conversationId: path.values.conversationId,
        };
      }
      return request;
    });
}
