import { connect } from 'node:net';
import { connectWebchat } from '../factories/channels';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { configureIntegration } from '../factories/integrations';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { TeamsService } from '@/modules/auth/teams.service';
import { ChannelsService } from '@/modules/agents/channels.service';
import { WebhookDeliveriesRepository } from '@/modules/webhooks/webhook-deliveries.repository';
import { recordSecret } from '../support/log-capture';
import { createWebhook, WEBHOOKS } from '../factories/webhooks';

/** Failures the contract fuzzer (test/fuzz, docs/fuzzing.md) found, kept as regression tests. */
describe('contract fuzzing regressions', () => {
  let t: TestApp;
  let document: any;

  beforeAll(async () => {
    t = await startTestApp();
    document = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, operation]) => ({ path, method, operation })),
    );

  it("documents 404 on every route of an agent: a key limited to other agents is answered so, calls' 501 routes included", async () => {
    const agentId = (await createAgent(t)).id;
    const other = (await createAgent(t)).id;
    const teamId = (await t.app.get(TeamsService).findByName('default'))!.id;
    const created = await t.app.get(ApiKeysService).createForAgents(teamId, ['*'], [other]);
    if ('notAgents' in created) {
      throw new Error('the agent is the team’s');
    }
    recordSecret('api key', created.key);
    const limited = t.api(created.key);
    const calls = `${API}/agents/${agentId}/calls`;
    for (const res of [
      await limited.get(calls),
      await limited.post(calls).send({}),
      await limited.get(`${calls}/00000000-0000-4000-8000-000000000000`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    await t.api(created.key).get(`${API}/agents/${other}/calls`).expect(501);
    const undocumented = operations()
      .filter(({ path }) => path.includes('{agentId}'))
      .filter(({ operation }) => !operation.responses['404'])
      .map(({ method, path }) => `${method} ${path}`);
    expect(undocumented).toEqual([]);
  });

  it('answers a path id with malformed percent-encoding with 404 after authentication, rate limited', async () => {
    for (const id of ['%', '%ZZ', '%C0%AF']) {
      const res = await t.api().get(`${API}/workflows/${id}`).expect(404);
      expect(res.body).toMatchObject({
        code: 'not_found',
        request_id: res.headers['x-request-id'],
      });
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    }
    const anonymous = await t.http().get(`${API}/workflows/%ZZ`).expect(401);
    expect(anonymous.body.code).toBe('api_key_missing');
  });

  it("names a tool's parameter and mapping keys in problems with their ':' percent-encoded", async () => {
    const agentId = (await createAgent(t)).id;
    const api = await configureIntegration(t, agentId, 'custom_api', {
      name: 'Shop',
      base_url: 'https://shop.example',
    });
    const res = await t
      .api()
      .post(`${API}/agents/${agentId}/integrations/custom_api/${api.id}/tools`)
      .send({
        name: 'Order',
        http_method: 'GET',
        url_template: '/orders',
        url_params: { 'a:b': 'string' },
        response_mapping: { fields: { ':I[O': '$.x', ok: '$.status' } },
      })
      .expect(400);
    expect(res.body.message).toEqual([
      'url_params.a%3Ab.name: must be a name of letters, digits and _ (not first)',
      'response_mapping.fields.%3AI[O: a name is letters, digits, _ and -, starting with a letter or _',
    ]);
  });

  it("answers headers over Node's size limit with 431 and the contract's error body", async () => {
    const res = await t
      .api()
      .get(`${API}/workflows`)
      .set('X-Filler', 'a'.repeat(20_000))
      .expect(431);
    expect(res.body).toEqual({
      message: 'Request headers are larger than the size limit',
      error: 'Request Header Fields Too Large',
      code: 'bad_request',
      statusCode: 431,
      request_id: res.headers['x-request-id'],
    });
  });

  it("answers a request Node's parser cannot read with 400 and the contract's error body", async () => {
    const { port } = new URL(t.url);
    const raw = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('NOT HTTP AT ALL\r\n\r\n'),
      );
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const requestId = /\r\nX-Request-Id: (\S+)/.exec(head)?.[1];
    expect(JSON.parse(body)).toEqual({
      message: 'Malformed HTTP request',
      error: 'Bad Request',
      code: 'bad_request',
      statusCode: 400,
      request_id: requestId,
    });
  });

  it("describes an unreachable MCP server without the runtime's error class names", async () => {
    const agentId = (await createAgent(t)).id;
    const base = `${API}/agents/${agentId}/integrations/mcp_server`;
    const server = await configureIntegration(t, agentId, 'mcp_server', {
      name: 'Nowhere',
      // fetch refuses port 9 (discard) outright: the SDK reports it as a TypeError.
      server_url: 'http://127.0.0.1:9/sse',
      transport: 'http_sse',
    });
    const res = await t.api().post(`${base}/${server.id}/discover`).expect(502);
    expect(res.body.message).toMatch(/^MCP server "Nowhere" could not list its tools: .*bad port/);
    expect(res.body.message).not.toMatch(/TypeError|Error:/);
  });

  it.each([
    ['rules', { rules: [[]] }],
    ['flows', { flows: [[]] }],
    ['faq', { faq: [[{ question: 'q', answer: 'a' }]] }],
    ['flows.0.trigger_keywords', { flows: [{ name: 'f', trigger_keywords: [[]] }] }],
    ['flows.0.conversation_steps', { flows: [{ name: 'f', conversation_steps: [[]] }] }],
    ['guide', { guide: [] }],
  ])('refuses an array where %s expects objects', async (field, fields) => {
    const res = await t
      .api()
      .post(`${API}/workflows`)
      .send({ name: 'Nested arrays', ...fields })
      .expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.message.join('\n')).toContain(`${field}`);
  });

  it("names an unknown field holding ':' so that a problem's first ':' still ends its path", async () => {
    const res = await t
      .api()
      .post(`${API}/workflows`)
      .send({ name: 'Colons', 'a:b': 1, rules: [{ name: 'r', 'c:d': 2 }] })
      .expect(400);
    expect(res.body.message).toEqual(['a%3Ab: is not allowed', 'rules.0.c%3Ad: is not allowed']);
  });

  it('refuses a body holding an unpaired surrogate with 400 bad_request, never 500', async () => {
    const agentId = (await createAgent(t)).id;
    for (const body of [{ business_email: 'a\uD800@example.com' }, { name: '\uDFFF' }]) {
      const res = await t.api().patch(`${API}/agents/${agentId}`).send(body).expect(400);
      expect(res.body.code).toBe('bad_request');
    }
    // A well-formed pair is ordinary text.
    await t.api().patch(`${API}/agents/${agentId}`).send({ name: 'Ada \uD83D\uDE00' }).expect(200);
  });

  it('documents Idempotency-Key and its 409 and 422 on every POST, PATCH and DELETE of the API', () => {
    const writes = operations().filter(
      ({ path, method }) => path.startsWith(API) && ['post', 'patch', 'delete'].includes(method),
    );
    expect(writes.length).toBeGreaterThan(20);
    for (const { path, method, operation } of writes) {
      const header = operation.parameters.find(
        (parameter: any) => parameter.name === 'Idempotency-Key',
      );
      expect({ path, method, idempotencyKey: Boolean(header) }).toEqual({
        path,
        method,
        idempotencyKey: true,
      });
      // A response that is a credential is never stored, so its key can neither conflict nor wait.
      if (!header.description.includes('never stored')) {
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']));
      }
    }
  });

  it('documents the body and header errors (400, 413, 415, 431) on every route that needs a key', () => {
    for (const { operation } of operations().filter(
      ({ operation }) => operation.security?.length,
    )) {
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['400', '401', '413', '415', '429', '431']),
      );
    }
  });

  it('types every length-limited or numeric-limited property of the document, nullable ones included', () => {
    const untyped: string[] = [];
    for (const [name, schema] of Object.entries<any>(document.components.schemas)) {
      for (const [property, definition] of Object.entries<any>(schema.properties ?? {})) {
        const limited = 'maxLength' in definition || 'minimum' in definition;
        if (limited && !['string', 'integer', 'number'].includes(definition.type)) {
          untyped.push(`${name}.${property}: ${definition.type}`);
        }
      }
    }
    expect(untyped).toEqual([]);
  });

  it('documents the query parameters of the stream and its 400 for a bad `after`', () => {
    const stream =
      document.paths[`${API}/agents/{agentId}/conversations/{conversationId}/stream`].get;
    const query = stream.parameters.filter((parameter: any) => parameter.in === 'query');
    expect(query.map((parameter: any) => [parameter.name, parameter.schema.type])).toEqual([
      ['ticket', 'string'],
      ['after', 'string'],
    ]);
    expect(Object.keys(stream.responses)).toContain('400');
  });

  it('documents 431 on every operation, the public ones included: the parser answers it first', () => {
    const without = operations()
      .filter(({ operation }) => !('431' in operation.responses))
      .map(({ path, method }) => `${method} ${path}`);
    expect(without).toEqual([]);
  });

  it('answers a redelivery whose webhook is deleted meanwhile with 404, not a 500 (PostgreSQL run)', async () => {
    const webhook = await createWebhook(t, 'http://127.0.0.1:9/hooks', ['agent.status_changed']);
    const ping = (await t.api().post(`${WEBHOOKS}/${webhook.id}/test`).expect(200)).body.data;
    const deliveries = t.app.get(WebhookDeliveriesRepository);
    const requeue = deliveries.requeue.bind(deliveries);
    // The deletion lands between the requeue and the read of the requeued delivery.
    const spy = jest.spyOn(deliveries, 'requeue').mockImplementation(async (...args) => {
      await requeue(...args);
      await t.api().delete(`${WEBHOOKS}/${webhook.id}`).expect(200);
    });
    try {
      const res = await t
        .api()
        .post(`${WEBHOOKS}/${webhook.id}/deliveries/${ping.id}/redeliver`)
        .expect(404);
      expect(res.body).toMatchObject({
        code: 'not_found',
        request_id: res.headers['x-request-id'],
      });
    } finally {
      spy.mockRestore();
    }
  });

  it("answers a widget request whose agent is deleted meanwhile with the guard's 401, not an undocumented 404", async () => {
    const agentId = (await createAgent(t)).id;
    const { widget } = await connectWebchat(t, agentId, 'https://shop.example');
    const visitor = (await widget('post', '/sessions').send({}).expect(201)).body.data
      .visitor_token;
    const channels = t.app.get(ChannelsService);
    const webchatForKey = channels.webchatForKey.bind(channels);
    // The deletion lands just after the guard found the chat.
    const spy = jest.spyOn(channels, 'webchatForKey').mockImplementation(async (key) => {
      const channel = await webchatForKey(key);
      await t.api().delete(`${API}/agents/${agentId}`).expect(200);
      return channel;
    });
    try {
      const res = await widget('get', '/config');
      expect([res.status, res.body.code]).toEqual([401, 'unauthorized']);
    } finally {
      spy.mockRestore();
    }
    const after = await widget('post', '/messages').send({ visitor_token: visitor, message: 'Hi' });
    expect([after.status, after.body.code]).toEqual([401, 'unauthorized']);
  });
});
