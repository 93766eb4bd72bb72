import fc from 'fast-check';
import { API } from '../support/api-client';
import { Resources } from './resources';
import { Hints } from './schema-arbitrary';
import { SEEDED_ASSIGNEES, SEEDED_LABELS } from './seed';
import { FUZZ_ORIGIN } from './seed-webchat';

/** Stands for a real stream ticket, issued just before the request is sent. */
export const FRESH_TICKET = '__fresh_ticket__';
/** Stands for the visitor token of the web chat a widget request is sent to (`requests.ts`). */
export const VISITOR_TOKEN = '__visitor_token__';

const DAY_MS = 86_400_000;

/**
 * A period's bound: `offset` days from today, `YYYY-MM-DD`; now and then an ISO-8601 date-time
 * (GET /usage takes them, the reports refuse them), or one that is neither.
 */
function periodBound(offsets: { min: number; max: number }): fc.Arbitrary<string> {
  const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString();
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer(offsets).map((offset) => day(offset).slice(0, 10)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer(offsets), fc.constantFrom('Z', '+01:00', '-05:30'))
        .map(([offset, zone]) => `${day(offset).slice(0, 19)}${zone}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '2026-02-30',
        '2026-1-1',
        'today',
        '1900-01-01',
        '2026-11-01T10:00:00',
      ),
    },
  );
}

export function hintsFor(resources: Resources): Hints {
  const workflowIds = resources.idArbitrary(`${API}/workflows/{id}`, 'id');
  const conversationIds = resources.idArbitrary(
    `${API}/agents/{agentId}/conversations/{conversationId}`,
    'conversationId',
  );
  const agentIds = resources.idArbitrary(`${API}/agents/{agentId}`, 'agentId');
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
  const credentials = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('sk_test_fuzz', 'tok_fuzz_123') },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );
  const unique = fc.uuid().map((uuid) => uuid.slice(0, 8));
  const toolParams = fc.constantFrom([], [{ name: 'order_id', type: 'string', required: true }], {
    order_id: 'string',
  });
  const byName: Record<string, fc.Arbitrary<unknown>> = {
    workflow_id: mixed(workflowIds),
    source_workflow_id: mixed(workflowIds),
    conversation_id: mixed(conversationIds),
    agent_id: fc.oneof({ weight: 4, arbitrary: mixed(agentIds) }, fc.constant(null)),
    'query.agent_id': mixed(agentIds),
    // The inbox filters: values the seeded conversations hold, `none`, or anything.
    'query.assignee_id': fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('none', ...SEEDED_ASSIGNEES) },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
    ),
    'query.label': fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...SEEDED_LABELS) },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
    ),
    submitted_by_agent_id: mixed(agentIds),
    action_ids: fc.array(mixed(resources.idArbitrary('actions', 'actionId')), { maxLength: 5 }),
    url: urls,
    base_url: urls,
    server_url: urls,
    test_endpoint: urls,
    video_url: urls,
    youtubeUrl: urls,
    logo: urls,
    app_icon: urls,
    url_template: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('/orders/{order_id}', 'http://127.0.0.1:9/x') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '{{x}}',
          '/a/{b}/{c}',
          '',
          '//169.254.169.254/x',
          '/\\169.254.169.254/x',
        ),
      },
    ),
    // Mostly the settings of no authentication (`{}`), so that a tool or API can be made.
    auth_config: fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.constantFrom({ token: 't' }, { username: 'u', password: 'p' }) },
    ),
    header_name: fc.constantFrom('X-Api-Key', 'X-Shop-Token', 'Bad Header', 'X-Evil\r\n', ''),
    timezone: fc.constantFrom('Africa/Lagos', 'UTC', 'Mars/Olympus', 'Etc/GMT+14', ''),
    channel_user_id: fc.oneof(
      fc.constantFrom('visitor-1', 'visitor-2'),
      fc.string({ minLength: 1, maxLength: 20 }),
    ),
    currency: fc.constantFrom('NGN', 'USD', 'XXXX', ''),
    // Credentials a provider (a local fake) accepts, or anything: header-unsafe ones are refused.
    token: credentials,
    secret_key: credentials,
    app_slug: fc.constantFrom('google_drive', 'slack', 'notion', 'Not A Slug!', ''),
    // A custom API tool's parameters and mapping: the shapes its route takes, or anything.
    url_params: fc.oneof({ weight: 3, arbitrary: toolParams }, fc.jsonValue({ maxDepth: 2 })),
    body_params: fc.oneof({ weight: 3, arbitrary: toolParams }, fc.jsonValue({ maxDepth: 2 })),
    response_mapping: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          {},
          { path: '$.data' },
          { fields: { status: '$.data.status' }, success_message: 'Your order is {{status}}' },
        ),
      },
      { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue()) },
    ),
    // A snooze: none, in the future (valid with status snoozed), or past.
    snoozed_until: fc.oneof(
      fc.constant(null),
      fc
        .integer({ min: 60, max: 30 * 86_400 })
        .map((s) => new Date(Date.now() + s * 1000).toISOString()),
      fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z') })
        .map((d) => d.toISOString()),
    ),
    // A built-in connector's fields depend on its type: bodies its route takes.
    [`body ${API}/agents/{agentId}/integrations/bimpeai/configure`]: fc.constantFrom(
      { type: 'paystack', secret_key: 'sk_test_fuzz' },
      { type: 'stripe', secret_key: 'sk_test_fuzz', currency: 'USD' },
      { type: 'bumpa', token: 'tok_fuzz_123' },
    ),
    // Bodies that are likely whole for routes whose generated bodies rarely are (names unique).
    [`body ${API}/agents/{agentId}/integrations/custom_api/{integrationId}/tools`]: unique.map(
      (n) => ({
        name: `Get order ${n}`,
        http_method: 'GET',
        url_template: '/orders/{order_id}',
        url_params: [{ name: 'order_id', type: 'string', required: true }],
        response_mapping: { path: '$.data', success_message: 'Your order is {{status}}' },
      }),
    ),
    [`body ${API}/agents/{agentId}/integrations/custom_api/configure`]: unique.map((n) => ({
      name: `Orders ${n}`,
      base_url: 'http://127.0.0.1:9/api',
    })),
    [`body ${API}/agents/{agentId}/integrations/mcp_server/configure`]: unique.map((n) => ({
      name: `Tools ${n}`,
      server_url: 'http://127.0.0.1:9/mcp',
    })),
    [`body ${API}/agents/{agentId}/conversations/messages`]: unique.map((n) => ({
      message: 'Hello, where is my order?',
      channel_type: 'webchat',
      channel_user_id: `visitor-${n}`,
    })),
    [`body ${API}/agents/{agentId}/knowledge_bases`]: unique.map((n) => ({
      type: 'text',
      name: `Notes ${n}`,
      content: 'We open at nine.',
    })),
    // The team's model settings: mostly a budget or allowed models on the environment's model
    // (stored), now and then a provider of its own, which nothing here answers (502).
    [`body ${API}/settings/model`]: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            monthly_token_budget: fc.oneof(fc.constant(null), fc.nat({ max: 10_000_000 })),
            allowed_models: fc.oneof(
              fc.constant(null),
              fc.uniqueArray(fc.constantFrom('small', 'large', 'gpt-4o-mini'), { maxLength: 3 }),
            ),
          },
          { requiredKeys: [] },
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constant({
          base_url: 'http://127.0.0.1:9/v1',
          api_key: 'sk-fuzz',
          model: 'small',
        }),
      },
    ),
    // A report's or usage's period: `from` before `to` and at most 92 days apart, mostly.
    'query.from': periodBound({ min: -60, max: 0 }),
    'query.to': periodBound({ min: -10, max: 40 }),
    // Mostly the fuzz origin (the widget requests send it), now and then what is refused.
    allowed_origins: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom([FUZZ_ORIGIN], [FUZZ_ORIGIN, 'http://localhost:3000']),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          [],
          ['https://fuzz.example/'],
          ['http://fuzz.example'],
          ['*'],
          ['https://user:pw@fuzz.example'],
          ['HTTPS://FUZZ.EXAMPLE'],
          Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
        ),
      },
    ),
    // The seeded visitor of the chat the request goes to, mostly; else an unknown one.
    visitor_token: fc.oneof(
      { weight: 6, arbitrary: fc.constant(VISITOR_TOKEN) },
      { weight: 1, arbitrary: fc.constant(`vt_${'A'.repeat(43)}`) },
      { weight: 1, arbitrary: fc.string({ maxLength: 120 }) },
    ),
    [`body ${API}/agents/{agentId}/channels/webchat/connect`]: fc.constantFrom(
      { allowed_origins: [FUZZ_ORIGIN] },
      { allowed_origins: [FUZZ_ORIGIN], title: 'Shop', greeting: 'Hi!', color: '#0F766E' },
      { allowed_origins: [FUZZ_ORIGIN, 'http://127.0.0.1:5173'], title: null, rotate_key: true },
    ),
    [`body ${API}/agents/{agentId}/channels/whatsapp/connect`]: fc.constant({
      phone_number_id: '106540352242922',
      access_token: 'EAAfuzz-token-1234',
      app_secret: 'fuzz-app-secret',
    }),
    ...Object.fromEntries(
      ['messenger', 'instagram'].map((type) => [
        `body ${API}/agents/{agentId}/channels/${type}/connect`,
        fc.constant({
          page_id: '1122334455',
          page_access_token: 'EAAfuzz-token-1234',
          app_secret: 'fuzz-app-secret',
        }),
      ]),
    ),
    ticket: fc.oneof(
      { weight: 3, arbitrary: fc.constant(FRESH_TICKET) },
      { weight: 1, arbitrary: fc.string({ maxLength: 64 }) },
    ),
  };
  return (name) => byName[name];
}
