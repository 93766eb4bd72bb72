import { createAgent } from '../factories/agents';
import { conversationsPath, issueTicket, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { openStream } from '../support/sse-client';

/** docs/api.md §1: unknown query parameters are a 400 naming each of them, on every route. */
describe('the strict query rule', () => {
  let t: TestApp;
  let agentId: string;
  let workflowId: string;
  let conversationId: string;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_MAX: '100000' });
    agentId = (await createAgent(t)).id;
    workflowId = (await createWorkflow(t)).id;
    conversationId = (await sendAs(t, agentId, 'strict-query-user', 'hello', { role: 'assistant' }))
      .conversation_id;
  });
  afterAll(() => t.close());

  function refusedNaming(body: Record<string, unknown>, names: string[]): void {
    expect(body).toMatchObject({ code: 'validation_error', statusCode: 400 });
    expect([...(body.message as string[])].sort()).toEqual(
      names.map((name) => `${name}: is not allowed`).sort(),
    );
  }

  describe('refused, each unknown parameter named', () => {
    it('on a list with a query DTO: a filter the list does not have', async () => {
      const res = await t.api().get(`${API}/workflows?status=active`).expect(400);
      refusedNaming(res.body, ['status']);
    });

    it('on a route that takes no query at all', async () => {
      const res = await t.api().get(`${API}/workflows/${workflowId}?foo=1`).expect(400);
      refusedNaming(res.body, ['foo']);
      const agent = await t.api().get(`${API}/agents/${agentId}/channels?x=`).expect(400);
      refusedNaming(agent.body, ['x']);
    });

    it('several at once, all named, beside the value problems of known ones', async () => {
      const list = await t.api().get(`${API}/agents?foo=1&bar=2&page=1`).expect(400);
      refusedNaming(list.body, ['foo', 'bar']);
      const detail = await t.api().get(`${API}/agents/${agentId}?a=1&b=2&c=3`).expect(400);
      refusedNaming(detail.body, ['a', 'b', 'c']);
      const mixed = await t.api().get(`${API}/agents?foo=1&page=0`).expect(400);
      expect(mixed.body.message).toEqual(
        expect.arrayContaining(['foo: is not allowed', expect.stringMatching(/^page: /)]),
      );
    });

    it('on writes too', async () => {
      const res = await t
        .api()
        .post(`${API}/workflows?dry_run=true`)
        .send({ name: 'Refused' })
        .expect(400);
      refusedNaming(res.body, ['dry_run']);
      // Refused before the handler: not stored under its Idempotency-Key, so a retry is refused again.
      for (let attempt = 0; attempt < 2; attempt++) {
        const keyed = await t
          .api()
          .post(`${API}/workflows?dry_run=true`)
          .set('Idempotency-Key', 'strict-query-retry')
          .send({ name: 'Refused' })
          .expect(400);
        expect(keyed.headers['idempotent-replayed']).toBeUndefined();
        refusedNaming(keyed.body, ['dry_run']);
      }
      const list = await t.api().get(`${API}/workflows?search=Refused`).expect(200);
      expect(list.body.data).toEqual([]);
    });
  });

  it('accepts the parameters each list documents', async () => {
    await t.api().get(`${API}/workflows?scope=owned&page=1&limit=5&search=w&sort=name`).expect(200);
    await t.api().get(`${API}/agents?status=live&sort=-created_at`).expect(200);
    await t
      .api()
      .get(
        `${conversationsPath(agentId)}?channel=webchat&is_test_channel=false` +
          '&is_ai_chat_paused=false&needs_attention=false&sort=-last_message_at',
      )
      .expect(200);
    await t
      .api()
      .get(`${conversationsPath(agentId)}/${conversationId}/messages?limit=1`)
      .expect(200);
    await t.api().get(`${API}/agents/${agentId}/action-runs?status=succeeded`).expect(200);
    await t.api().get(`${API}/webhooks?sort=url`).expect(200);
    await t.api().get(`${API}/phone-numbers?search=1`).expect(200);
    await t.api().get(`${API}/phone-numbers/request?status=pending`).expect(200);
    await t.api().get(`${API}/workflows/${workflowId}`).expect(200);
  });

  describe('after auth and scope', () => {
    it('401 before 400: no key and an unknown parameter', async () => {
      const list = await t.http().get(`${API}/workflows?foo=1`).expect(401);
      expect(list.body.code).toBe('api_key_missing');
      const detail = await t.http().get(`${API}/workflows/${workflowId}?foo=1`).expect(401);
      expect(detail.body.code).toBe('api_key_missing');
    });

    it('403 before 400: a key without the scope and an unknown parameter', async () => {
      const reader = await t.createKey('default', ['agents:read']);
      const list = await t.api(reader.key).get(`${API}/workflows?foo=1`).expect(403);
      expect(list.body.code).toBe('insufficient_scope');
      const detail = await t
        .api(reader.key)
        .get(`${API}/workflows/${workflowId}?foo=1`)
        .expect(403);
      expect(detail.body.code).toBe('insufficient_scope');
    });
  });

  describe('the call lists', () => {
    const clientQuery = 'page=2&limit=10&search=x&sort=-created_at&is_test_call=true&status=done';

    it('accept what clients send and answer 501, whatever the values', async () => {
      for (const path of [`${API}/calls`, `${API}/agents/${agentId}/calls`]) {
        const res = await t.api().get(`${path}?${clientQuery}`).expect(501);
        expect(res.body.code).toBe('not_implemented');
        await t.api().get(`${path}?page=0&limit=1000&is_test_call=maybe`).expect(501);
      }
    });

    it('refuse other parameters', async () => {
      const res = await t.api().get(`${API}/calls?page=1&direction=inbound`).expect(400);
      refusedNaming(res.body, ['direction']);
    });
  });

  describe('the stream, authenticated by its ticket', () => {
    const streamUrl = (query: string) =>
      `${t.url}${conversationsPath(agentId)}/${conversationId}/stream?${query}`;

    it('opens with its ticket and its resume point', async () => {
      const ticket = await issueTicket(t, agentId, conversationId);
      const stream = await openStream(streamUrl(`ticket=${ticket}&after=2020-01-01T00:00:00.000Z`));
      try {
        expect(stream.status).toBe(200);
        expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      } finally {
        stream.close();
      }
    });

    it('401 without a ticket before 400 for an unknown parameter', async () => {
      const res = await openStream(streamUrl('foo=1'));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthorized' });
    });

    it('refuses an unknown parameter beside a good ticket, as JSON', async () => {
      const ticket = await issueTicket(t, agentId, conversationId);
      const res = await openStream(streamUrl(`ticket=${ticket}&foo=1`));
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      refusedNaming(res.body!, ['foo']);
    });
  });

  it('is documented: every API operation may answer 400, each list shows its parameters', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    const operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, operation]) => ({ path, method, operation })),
    );
    const api = operations.filter(({ path }) => path.startsWith(API));
    expect(api.length).toBeGreaterThan(40);
    const without400 = api.filter(({ operation }) => !operation.responses['400']);
    expect(without400.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    const queryOf = (path: string) =>
      operations
        .find((o) => o.method === 'get' && o.path === `${API}${path}`)!
        .operation.parameters.filter((p: { in: string }) => p.in === 'query')
        .map((p: { name: string }) => p.name)
        .sort();
    const callQuery = ['is_test_call', 'limit', 'page', 'search', 'sort', 'status'];
    expect(queryOf('/calls')).toEqual(callQuery);
    expect(queryOf('/agents/{agentId}/calls')).toEqual(callQuery);
    expect(queryOf('/workflows')).toEqual(['limit', 'page', 'scope', 'search', 'sort']);
    expect(queryOf('/agents/{agentId}/conversations/{conversationId}/stream')).toEqual([
      'after',
      'ticket',
    ]);
  });

  it('leaves the routes outside the API prefix alone', async () => {
    await t.http().get('/healthz?probe=1').expect(200);
    await t.http().get('/readyz?probe=1').expect(200);
    await t.http().get(`${API}/openapi.json?v=1`).expect(200);
    const unknown = await t.api().get(`${API}/no-such-route?foo=1`).expect(404);
    expect(unknown.body.code).toBe('not_found');
  });
});
