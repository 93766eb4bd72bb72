import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { WebhookReceiver } from '../support/webhook-receiver';

const PUBLIC_URL = 'https://console.example.com';

/** docs/api.md §4d: connecting and disconnecting an agent's channels (the web chat here). */
describe('channels: connect and disconnect', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let agentId: string;

  const channelsOf = async (id = agentId) =>
    (await t.api().get(`${API}/agents/${id}/channels`).expect(200)).body.data as Array<
      Record<string, any>
    >;
  const connect = (body: object, id = agentId, key = t.key) =>
    t.api(key).post(`${API}/agents/${id}/channels/webchat/connect`).send(body);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({ PUBLIC_URL: `${PUBLIC_URL}/` });
    agentId = (await createAgent(t, { name: 'Ada' })).id;
    await createWebhook(t, receiver.url, ['channel.status_changed']);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('connects the web chat: a publishable key, the snippet, settings without secrets', async () => {
    const res = await connect({
      allowed_origins: ['https://shop.example', 'http://localhost:5173', 'https://shop.example'],
      title: 'Ada from the shop',
      greeting: 'Hello! Ask me anything.',
      color: '#0F766E',
    }).expect(200);
    const channel = res.body.data;
    expect(channel.publishable_key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(channel.embed_snippet).toBe(
      `<script src="${PUBLIC_URL}/widget.js" data-key="${channel.publishable_key}" async></script>`,
    );
    expect(channel).toMatchObject({
      type: 'webchat',
      status: 'active',
      status_reason: null,
      is_connected: true,
      config: {
        allowed_origins: ['https://shop.example', 'http://localhost:5173'],
        title: 'Ada from the shop',
        greeting: 'Hello! Ask me anything.',
        color: '#0f766e',
      },
      connected_at: expect.any(String),
    });
    const listed = (await channelsOf()).find((c) => c.type === 'webchat');
    expect(listed).toEqual({
      ...channel,
      publishable_key: undefined,
      embed_snippet: undefined,
    });
    expect(JSON.stringify(await channelsOf())).not.toContain(channel.publishable_key);
    await receiver.waitFor(() => receiver.ofType('channel.status_changed').length === 1);
    expect(receiver.ofType('channel.status_changed')[0].body.data).toMatchObject({
      id: channel.id,
      agent_id: agentId,
      status: 'active',
    });
  });

  it('keeps the key when connected again, and replaces it with rotate_key', async () => {
    const first = (await connect({ allowed_origins: ['https://a.example'] }).expect(200)).body.data;
    const again = (await connect({ allowed_origins: ['https://b.example'] }).expect(200)).body.data;
    expect(again.publishable_key).toBe(first.publishable_key);
    // Connecting again replaces the settings.
    expect(again.config).toEqual({
      allowed_origins: ['https://b.example'],
      title: null,
      greeting: null,
      color: null,
    });
    expect(again.connected_at).toBe(first.connected_at);
    const rotated = (
      await connect({ allowed_origins: ['https://b.example'], rotate_key: true }).expect(200)
    ).body.data;
    expect(rotated.publishable_key).not.toBe(first.publishable_key);
  });

  it.each([
    [{}, 'allowed_origins'],
    [{ allowed_origins: [] }, 'allowed_origins'],
    [{ allowed_origins: ['https://shop.example/'] }, 'allowed_origins'],
    [{ allowed_origins: ['https://shop.example/chat'] }, 'allowed_origins'],
    [{ allowed_origins: ['http://shop.example'] }, 'allowed_origins'],
    [{ allowed_origins: ['http://localhost'] }, 'allowed_origins'],
    [{ allowed_origins: ['https://user:pw@shop.example'] }, 'allowed_origins'],
    [{ allowed_origins: ['*'] }, 'allowed_origins'],
    [{ allowed_origins: 'https://shop.example' }, 'allowed_origins'],
    [
      { allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) },
      'allowed_origins',
    ],
    [{ allowed_origins: ['https://shop.example'], color: 'teal' }, 'color'],
    [{ allowed_origins: ['https://shop.example'], title: 'x'.repeat(101) }, 'title'],
    [{ allowed_origins: ['https://shop.example'], rotate_key: 'yes' }, 'rotate_key'],
    [{ allowed_origins: ['https://shop.example'], app_secret: 'x' }, 'app_secret'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await connect(body).expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
  });

  it('refuses telephony (400), and unknown types (404)', async () => {
    const res = await t
      .api()
      .post(`${API}/agents/${agentId}/channels/telephony/connect`)
      .send({})
      .expect(400);
    expect(res.body.message).toContain('Calls are not available');
    await t.api().post(`${API}/agents/${agentId}/channels/fax/connect`).send({}).expect(404);
    await t.api().post(`${API}/agents/${agentId}/channels/fax/disconnect`).expect(404);
  });

  it('disconnects: inactive, saying so, the key forgotten, announced', async () => {
    await connect({ allowed_origins: ['https://shop.example'] }).expect(200);
    const before = receiver.ofType('channel.status_changed').length;
    const res = await t
      .api()
      .post(`${API}/agents/${agentId}/channels/webchat/disconnect`)
      .expect(200);
    expect(res.body.data).toMatchObject({
      status: 'inactive',
      status_reason: 'Disconnected',
      is_connected: false,
      config: {},
      connected_at: null,
    });
    await receiver.waitFor(() => receiver.ofType('channel.status_changed').length === before + 1);
    // Disconnecting again changes nothing and announces nothing.
    await t.api().post(`${API}/agents/${agentId}/channels/webchat/disconnect`).expect(200);
    const reconnected = await connect({ allowed_origins: ['https://shop.example'] }).expect(200);
    expect(reconnected.body.data.status).toBe('active');
  });

  it("needs channels:write, and answers 404 for another team's agent", async () => {
    const { key: writer } = await t.createKey('default', ['agents:write', 'agents:read']);
    const refused = await connect({ allowed_origins: ['https://shop.example'] }, agentId, writer);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('channels:write');
    const { key: stranger } = await t.createKey('channels-stranger', ['*']);
    await connect({ allowed_origins: ['https://shop.example'] }, agentId, stranger).expect(404);
    await t.api(stranger).post(`${API}/agents/${agentId}/channels/webchat/disconnect`).expect(404);
  });
});
