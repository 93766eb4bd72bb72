import { createAgent } from '../factories/agents';
import { allMessages, conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { FakeGraphApi } from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { pollUntil } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const PUBLIC_URL = 'https://console.example.com';
const APP_SECRET = 'app-secret-for-tests';

/** docs/api.md §4d: WhatsApp connected with Meta, and the outbox that sends through it. */
describe('channels that send: WhatsApp through the Graph API', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let receiver: WebhookReceiver;
  let agentId: string;
  let user = 0;

  const connectWhatsApp = (body: object, id = agentId) =>
    t.api().post(`${API}/agents/${id}/channels/whatsapp/connect`).send(body);
  const credentials = () => ({
    phone_number_id: graph.options.phoneNumberId,
    access_token: graph.options.accessToken,
    app_secret: APP_SECRET,
  });
  const sendsTo = (to: string) =>
    graph.requestsOf('messages').filter((r) => (r.body as { to?: string }).to === to);
  const deliveryOf = async (conversationId: string, text: string) =>
    (await allMessages(t, agentId, conversationId)).find((m) => m.message === text) as unknown as {
      delivery: { status: string; error: string | null } | null;
    };
  const waitForDelivery = (conversationId: string, text: string, status: string) =>
    pollUntil(
      () => deliveryOf(conversationId, text),
      (m) => m?.delivery?.status === status,
      10_000,
      25,
    );

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      PUBLIC_URL,
      META_GRAPH_BASE_URL: graph.url,
      CHANNEL_FIRST_RETRY_S: '1',
    });
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi from WhatsApp!', enabled: true }],
    });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createWebhook(t, receiver.url, ['message.delivery_updated', 'channel.status_changed']);
  });
  afterAll(async () => {
    await t.close();
    await graph.close();
    await receiver.close();
  });

  it('refuses credentials Meta refuses (400) and a Meta that fails (502), storing nothing', async () => {
    const refused = await connectWhatsApp({ ...credentials(), access_token: 'EAAwrong-token-x' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Meta refused the credentials');
    expect(JSON.stringify(refused.body)).not.toContain('EAAwrong-token-x');
    graph.failNext('account', { status: 503 });
    await connectWhatsApp(credentials()).expect(502);
    const channels = (await t.api().get(`${API}/agents/${agentId}/channels`).expect(200)).body.data;
    expect(channels.find((c: { type: string }) => c.type === 'whatsapp')).toMatchObject({
      status: 'inactive',
      is_connected: false,
    });
    await connectWhatsApp({ ...credentials(), phone_number_id: 'not-a-number' }).expect(400);
  });

  it('connects: the webhook URL and verify token to paste in the Meta app, no secret shown', async () => {
    const res = await connectWhatsApp(credentials()).expect(200);
    const channel = res.body.data;
    expect(channel).toMatchObject({
      type: 'whatsapp',
      status: 'active',
      is_connected: true,
      config: { phone_number_id: graph.options.phoneNumberId },
      webhook_url: `${PUBLIC_URL}/api/v1/channels/${channel.id}/webhook`,
      verify_token: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain(graph.options.accessToken);
    expect(JSON.stringify(res.body)).not.toContain(APP_SECRET);
    const listed = JSON.stringify((await t.api().get(`${API}/agents/${agentId}/channels`)).body);
    expect(listed).not.toContain(graph.options.accessToken);
    expect(listed).not.toContain(channel.verify_token);
  });

  it("sends the agent's reply to the customer's number, and marks it sent", async () => {
    const from = `+23480300000${++user}`;
    const sent = await sendAs(t, agentId, from, 'hello', { channel_type: 'whatsapp' });
    await repliesSettled(t);
    const { value } = await waitForDelivery(sent.conversation_id, 'Hi from WhatsApp!', 'sent');
    expect(value?.delivery).toMatchObject({ status: 'sent', error: null });
    const [request] = sendsTo(from);
    expect(request.path).toBe(`/${graph.options.phoneNumberId}/messages`);
    expect(request.headers.authorization).toBe(`Bearer ${graph.options.accessToken}`);
    expect(request.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: from,
      type: 'text',
      text: { body: 'Hi from WhatsApp!' },
    });
    // The customer's own message is not sent anywhere.
    expect((await deliveryOf(sent.conversation_id, 'hello')).delivery).toBeNull();
  });

  it('sends operator messages, never notes', async () => {
    const from = `+23480300000${++user}`;
    const sent = await sendAs(t, agentId, from, 'hello', { channel_type: 'whatsapp' });
    await repliesSettled(t);
    const base = `${conversationsPath(agentId)}/${sent.conversation_id}`;
    await t.api().post(`${base}/notes`).send({ text: 'Internal only' }).expect(201);
    await t
      .api()
      .post(`${base}/messages`)
      .send({ message: 'Kemi here', role: 'assistant' })
      .expect(201);
    await waitForDelivery(sent.conversation_id, 'Kemi here', 'sent');
    const texts = sendsTo(from).map((r) => (r.body as { text: { body: string } }).text.body);
    expect(texts).toEqual(['Hi from WhatsApp!', 'Kemi here']);
  });

  it('retries what Meta says may work later (429), and announces the delivery', async () => {
    const from = `+23480300000${++user}`;
    graph.failNext('messages', {
      status: 429,
      body: { error: { code: 4, message: 'Too many calls' } },
    });
    const sent = await sendAs(t, agentId, from, 'hello', { channel_type: 'whatsapp' });
    await repliesSettled(t);
    await waitForDelivery(sent.conversation_id, 'Hi from WhatsApp!', 'sent');
    expect(sendsTo(from)).toHaveLength(2);
    await receiver.waitFor((events) =>
      events.some(
        (e) =>
          e.body.type === 'message.delivery_updated' &&
          e.body.data.conversation_id === sent.conversation_id &&
          e.body.data.delivery?.status === 'sent',
      ),
    );
  });

  it("fails for good what Meta refuses (the 24-hour window), with Meta's reason", async () => {
    const from = `+23480300000${++user}`;
    graph.failNext('messages', {
      status: 400,
      body: {
        error: {
          code: 131047,
          message: 'Re-engagement message',
          error_data: { details: 'More than 24 hours have passed since the customer last replied' },
        },
      },
    });
    const sent = await sendAs(t, agentId, from, 'hello', { channel_type: 'whatsapp' });
    await repliesSettled(t);
    const { value } = await waitForDelivery(sent.conversation_id, 'Hi from WhatsApp!', 'failed');
    expect(value?.delivery?.error).toMatch(/24/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sendsTo(from)).toHaveLength(1);
  });

  it('sends nothing through a disconnected channel', async () => {
    await t.api().post(`${API}/agents/${agentId}/channels/whatsapp/disconnect`).expect(200);
    const from = `+23480300000${++user}`;
    const sent = await sendAs(t, agentId, from, 'hello', { channel_type: 'whatsapp' });
    await repliesSettled(t);
    // Not connected when the reply was written: it is not queued at all.
    expect((await deliveryOf(sent.conversation_id, 'Hi from WhatsApp!')).delivery).toBeNull();
    expect(sendsTo(from)).toHaveLength(0);
  });

  it('needs PUBLIC_URL to connect a Meta channel (400 naming it)', async () => {
    const local = await startTestApp({
      META_GRAPH_BASE_URL: graph.url,
      DATABASE_URL: t.env.DATABASE_URL,
    });
    try {
      const res = await local
        .api(t.key)
        .post(`${API}/agents/${agentId}/channels/whatsapp/connect`)
        .send(credentials())
        .expect(400);
      expect(res.body.message).toContain('PUBLIC_URL');
    } finally {
      await local.stop();
    }
  });
});
