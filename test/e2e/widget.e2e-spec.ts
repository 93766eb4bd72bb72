import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { openStream } from '../support/sse-client';

const ORIGIN = 'https://shop.example';
const WIDGET = '/api/v1/widget';

/** docs/api.md §7a: the widget's public API, with a publishable key and an allowed origin. */
describe('the web-chat widget API', () => {
  let t: TestApp;
  let agentId: string;
  let pk: string;

  const widget = (origin: string | null = ORIGIN, key = pk) => {
    const withHeaders = (test: ReturnType<ReturnType<TestApp['http']>['get']>) => {
      test.set('Authorization', `Bearer ${key}`);
      return origin ? test.set('Origin', origin) : test;
    };
    return {
      get: (path: string) => withHeaders(t.http().get(`${WIDGET}${path}`)),
      post: (path: string) => withHeaders(t.http().post(`${WIDGET}${path}`)),
    };
  };
  const newVisitor = async () =>
    (await widget().post('/sessions').send({}).expect(201)).body.data.visitor_token as string;

  beforeAll(async () => {
    t = await startTestApp({ WIDGET_RATE_LIMIT_MAX: '1000' });
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi from the shop!', enabled: true }],
    });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    const connected = await t
      .api()
      .post(`${API}/agents/${agentId}/channels/webchat/connect`)
      .send({ allowed_origins: [ORIGIN], greeting: 'Welcome!', color: '#112233' })
      .expect(200);
    pk = connected.body.data.publishable_key;
  });
  afterAll(() => t.close());

  it('shows its configuration, with CORS for the allowed origin only', async () => {
    const res = await widget().get('/config').expect(200);
    expect(res.body.data).toEqual({ title: 'Ada', greeting: 'Welcome!', color: '#112233' });
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    const wrong = await widget('https://evil.example').get('/config').expect(403);
    expect(wrong.body.code).toBe('forbidden');
    expect(wrong.headers['access-control-allow-origin']).toBeUndefined();
    await widget(null).get('/config').expect(403);
  });

  it('answers preflights for origins some web chat allows, and no other', async () => {
    const ok = await t
      .http()
      .options(`${WIDGET}/messages`)
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type')
      .expect(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.headers['access-control-allow-headers']).toContain('Authorization');
    const refused = await t
      .http()
      .options(`${WIDGET}/messages`)
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST')
      .expect(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a missing or unknown publishable key (401), and a pk_ key on the console (401)', async () => {
    await t.http().get(`${WIDGET}/config`).set('Origin', ORIGIN).expect(401);
    await widget(ORIGIN, 'pk_' + 'x'.repeat(43))
      .get('/config')
      .expect(401);
    await widget(ORIGIN, t.key).get('/config').expect(401);
    await t.http().get(`${API}/agents`).set('Authorization', `Bearer ${pk}`).expect(401);
  });

  it('converses: a session, a message, the reply, history in the customer view', async () => {
    const session = (await widget().post('/sessions').send({}).expect(201)).body.data;
    expect(session.visitor_token).toMatch(/^vt_/);
    expect(session.conversation_id).toBeNull();
    const sent = await widget()
      .post('/messages')
      .send({ visitor_token: session.visitor_token, message: 'hello' })
      .expect(201);
    expect(sent.body.data).toMatchObject({
      role: 'user',
      message: 'hello',
      author: { type: 'customer', name: null },
    });
    expect(sent.body.data).not.toHaveProperty('private');
    await repliesSettled(t);
    const again = (
      await widget().post('/sessions').send({ visitor_token: session.visitor_token }).expect(201)
    ).body.data;
    expect(again).toEqual({
      visitor_token: session.visitor_token,
      conversation_id: sent.body.data.conversation_id,
    });
    const conversationId = again.conversation_id;
    // Staff write a note and an operator reply: only the reply reaches the visitor.
    const staff = `${conversationsPath(agentId)}/${conversationId}`;
    await t.api().post(`${staff}/notes`).send({ text: 'Secret staff note' }).expect(201);
    await t
      .api()
      .post(`${staff}/messages`)
      .send({ message: 'Kemi here', role: 'assistant', author: { id: 'op-7', name: 'Kemi' } })
      .expect(201);
    const history = await widget()
      .get(`/messages?visitor_token=${session.visitor_token}`)
      .expect(200);
    expect(history.body.data.map((m: { message: string }) => m.message)).toEqual([
      'hello',
      'Hi from the shop!',
      'Kemi here',
    ]);
    expect(history.body.data[2].author).toEqual({ type: 'operator', name: 'Kemi' });
    expect(JSON.stringify(history.body)).not.toContain('Secret staff note');
    expect(JSON.stringify(history.body)).not.toContain('op-7');
    expect(JSON.stringify(history.body)).not.toContain('needs_attention');
    const after = await widget()
      .get(`/messages?visitor_token=${session.visitor_token}&after=${history.body.data[0].id}`)
      .expect(200);
    expect(after.body.data).toHaveLength(2);
    const detail = (await t.api().get(staff).expect(200)).body.data;
    expect(detail).toMatchObject({ channel_type: 'webchat', channel_id: expect.any(String) });
  });

  it('streams the conversation in the customer view, notes left out', async () => {
    const token = await newVisitor();
    const first = (
      await widget().post('/messages').send({ visitor_token: token, message: 'hello' }).expect(201)
    ).body.data;
    await repliesSettled(t);
    const ticket = (
      await widget().post('/stream-ticket').send({ visitor_token: token }).expect(201)
    ).body.data.ticket;
    const stream = await openStream(`${t.url}${WIDGET}/stream?ticket=${ticket}&after=${first.id}`, {
      Origin: ORIGIN,
    });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(stream.headers['cache-control']).toBe('no-cache');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      await stream.waitFor((frames) => frames.some((f) => f.data?.includes('Hi from the shop!')));
      const staff = `${conversationsPath(agentId)}/${first.conversation_id}`;
      await t.api().post(`${staff}/notes`).send({ text: 'Never to the visitor' }).expect(201);
      await t.api().post(`${staff}/messages`).send({ message: 'Live!', role: 'assistant' });
      await stream.waitFor((frames) => frames.some((f) => f.data?.includes('Live!')));
      const data = stream.frames.filter((f) => f.event === 'message').map((f) => f.data ?? '');
      expect(data.join('\n')).not.toContain('Never to the visitor');
      expect(JSON.parse(data.at(-1)!)).toEqual({
        id: expect.any(String),
        conversation_id: first.conversation_id,
        role: 'assistant',
        message: 'Live!',
        message_type: 'text',
        created_at: expect.any(String),
        author: { type: 'operator', name: null },
      });
    } finally {
      stream.close();
    }
    // A ticket opens one stream, once.
    const reused = await openStream(`${t.url}${WIDGET}/stream?ticket=${ticket}`, {
      Origin: ORIGIN,
    });
    expect(reused.status).toBe(404);
  });

  it('keeps visitors apart: a token reaches its own conversation only', async () => {
    const ann = await newVisitor();
    const bob = await newVisitor();
    await widget()
      .post('/messages')
      .send({ visitor_token: ann, message: 'Ann private' })
      .expect(201);
    const bobs = await widget().get(`/messages?visitor_token=${bob}`).expect(200);
    expect(JSON.stringify(bobs.body)).not.toContain('Ann private');
    await widget().get('/messages?visitor_token=vt_forged').expect(401);
    await widget()
      .post('/messages')
      .send({ visitor_token: 'vt_' + 'a'.repeat(43), message: 'x' })
      .expect(401);
    await repliesSettled(t);
  });

  it('validates messages', async () => {
    const token = await newVisitor();
    for (const [body, field] of [
      [{ message: 'x' }, 'visitor_token'],
      [{ visitor_token: token, message: '' }, 'message'],
      [{ visitor_token: token, message: 'x'.repeat(4001) }, 'message'],
      [{ visitor_token: token, message: 'x', role: 'assistant' }, 'role'],
      [{ visitor_token: 7, message: 'x' }, 'visitor_token'],
    ] as const) {
      const res = await widget().post('/messages').send(body).expect(400);
      expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
    }
    await widget().get(`/messages?visitor_token=${token}&page=0`).expect(400);
    await widget().get(`/messages?visitor_token=${token}&after=nope`).expect(400);
    await widget().get(`/messages?visitor_token=${token}&other=1`).expect(400);
  });

  it('serves widget.js to any site, cacheable', async () => {
    const res = await t.http().get('/widget.js').expect(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toContain('max-age');
    await t.http().get('/widget.js').set('If-None-Match', res.headers.etag).expect(304);
  });

  // Regression: the widget's operations were tagged both `widget` and `Widget` (made by
  // @nestjs/swagger from the controller's name), so that Swagger UI listed each of them twice.
  it('lists its operations under the one tag `widget` in the OpenAPI document', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const widgetOperations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(WIDGET) || path === '/widget.js')
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => [`${method} ${path}`, operation.tags]),
      );
    expect(widgetOperations).toHaveLength(7);
    expect(widgetOperations.filter(([, tags]) => JSON.stringify(tags) !== '["widget"]')).toEqual(
      [],
    );
  });

  it('stops when the web chat is disconnected', async () => {
    const other = (await createAgent(t, { name: 'Bo' })).id;
    const key = (
      await t
        .api()
        .post(`${API}/agents/${other}/channels/webchat/connect`)
        .send({ allowed_origins: [ORIGIN] })
        .expect(200)
    ).body.data.publishable_key;
    await widget(ORIGIN, key).get('/config').expect(200);
    await t.api().post(`${API}/agents/${other}/channels/webchat/disconnect`).expect(200);
    await widget(ORIGIN, key).get('/config').expect(401);
  });
});

describe('the web-chat widget rate limits', () => {
  let t: TestApp;
  let pk: string;
  let address = 0;

  /** Each request from an address of its own unless `from` is given (TRUST_PROXY=loopback). */
  const post = (path: string, body: object, from = `198.51.100.${++address}`) =>
    t
      .http()
      .post(`${WIDGET}${path}`)
      .set('Authorization', `Bearer ${pk}`)
      .set('Origin', ORIGIN)
      .set('X-Forwarded-For', from)
      .send(body);

  beforeAll(async () => {
    t = await startTestApp({ WIDGET_RATE_LIMIT_MAX: '3', TRUST_PROXY: 'loopback' });
    const agentId = (await createAgent(t, { name: 'Ada' })).id;
    pk = (
      await t
        .api()
        .post(`${API}/agents/${agentId}/channels/webchat/connect`)
        .send({ allowed_origins: [ORIGIN] })
        .expect(200)
    ).body.data.publishable_key;
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
  });

  it('lets a visitor send WIDGET_RATE_LIMIT_MAX messages a minute, from any address', async () => {
    const token = (await post('/sessions', {}).expect(201)).body.data.visitor_token;
    for (let i = 0; i < 3; i++) {
      await post('/messages', { visitor_token: token, message: `m${i}` }).expect(201);
    }
    const refused = await post('/messages', { visitor_token: token, message: 'one more' }).expect(
      429,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The page can read it: Retry-After is exposed to the chat's origin.
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(refused.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(refused.body.message).toContain('this visitor');
    expect(refused.body.message).toContain('WIDGET_RATE_LIMIT_MAX');
  });

  it('lets an address make that many visitors and messages, however many visitors it makes', async () => {
    const from = '203.0.113.9';
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      tokens.push((await post('/sessions', {}, from).expect(201)).body.data.visitor_token);
    }
    const refused = await post('/sessions', {}, from).expect(429);
    expect(refused.body.message).toContain('this address');
    await post('/messages', { visitor_token: tokens[0], message: 'hi' }, from).expect(429);
    // Another address is not held back.
    await post('/messages', { visitor_token: tokens[1], message: 'hi' }).expect(201);
  });
});
