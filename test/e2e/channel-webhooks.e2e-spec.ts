import { ChannelSendEntity } from '@/modules/conversations/entities/channel-send.entity';
import { createAgent } from '../factories/agents';
import { connectWhatsApp } from '../factories/channels';
import { allMessages, conversationsPath, repliesSettled } from '../factories/conversations';
import { startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import {
  FakeGraphApi,
  signMeta,
  whatsappStatusNotification,
  whatsappTextNotification,
} from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { pollUntil } from '../support/wait';

const PUBLIC_URL = 'https://console.example.com';
const APP_SECRET = 'inbound-app-secret';

/** docs/api.md §4d: Meta's webhook, from the signed notification to the reply sent back. */
describe('channel webhooks: WhatsApp in, the reply out', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let agentId: string;
  let channelId: string;
  let verifyToken: string;
  let webhookPath: string;
  let sender = 100;

  const post = (body: unknown, signature?: string, raw = JSON.stringify(body)) => {
    const request = t.http().post(webhookPath).set('Content-Type', 'application/json').send(raw);
    return signature === undefined ? request : request.set('X-Hub-Signature-256', signature);
  };
  const signed = (body: unknown) => post(body, signMeta(JSON.stringify(body), APP_SECRET));
  const conversationOf = async (from: string) => {
    const { value } = await pollUntil(
      async () =>
        (
          await t
            .api()
            .get(`${conversationsPath(agentId)}?search=${from}`)
            .expect(200)
        ).body.data,
      (list: Array<{ id: string }>) => list.length > 0,
      10_000,
      25,
    );
    return value[0] as { id: string; channel_user_username: string | null };
  };

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    t = await startTestApp({ PUBLIC_URL, META_GRAPH_BASE_URL: graph.url });
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi from the shop!', enabled: true }],
    });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    const connected = await connectWhatsApp(t, agentId, graph, APP_SECRET);
    channelId = connected.id;
    verifyToken = connected.verify_token;
    webhookPath = `/api/v1/channels/${channelId}/webhook`;
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
    await graph.close();
  });

  it("answers Meta's verification with the challenge, and refuses a wrong token", async () => {
    const ok = await t
      .http()
      .get(
        `${webhookPath}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`,
      )
      .expect(200);
    expect(ok.text).toBe('1158201444');
    expect(ok.headers['content-type']).toContain('text/plain');
    await t
      .http()
      .get(`${webhookPath}?hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1`)
      .expect(403);
    await t
      .http()
      .get(`/api/v1/channels/${agentId}/webhook?hub.mode=subscribe&hub.verify_token=${verifyToken}`)
      .expect(404);
  });

  it("takes a customer's message in and sends the agent's reply back to their number", async () => {
    const from = `2348030000${++sender}`;
    const body = whatsappTextNotification({
      phoneNumberId: graph.options.phoneNumberId,
      from,
      name: 'Chidi Okafor',
      text: 'hello',
      id: `wamid.in-${sender}`,
    });
    const res = await signed(body).expect(200);
    expect(res.body).toEqual({ received: true });
    const conversation = await conversationOf(from);
    expect(conversation.channel_user_username).toBe('Chidi Okafor');
    await repliesSettled(t);
    const { value } = await pollUntil(
      async () =>
        graph.requestsOf('messages').filter((r) => (r.body as { to: string }).to === from),
      (requests) => requests.length > 0,
      10_000,
      25,
    );
    expect(value[0].body).toMatchObject({ to: from, text: { body: 'Hi from the shop!' } });
  });

  it('stores nothing for a missing or wrong signature (401)', async () => {
    const from = `2348030000${++sender}`;
    const body = whatsappTextNotification({
      phoneNumberId: graph.options.phoneNumberId,
      from,
      text: 'hello',
      id: `wamid.forged-${sender}`,
    });
    await post(body).expect(401);
    await post(body, signMeta(JSON.stringify(body), 'another-secret')).expect(401);
    await post(body, 'sha256=zz').expect(401);
    // Signed over other bytes than the ones sent.
    await post(body, signMeta(JSON.stringify({ ...body, extra: 1 }), APP_SECRET)).expect(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const list = await t
      .api()
      .get(`${conversationsPath(agentId)}?search=${from}`)
      .expect(200);
    expect(list.body.data).toHaveLength(0);
  });

  it('answers a redelivered notification once', async () => {
    const from = `2348030000${++sender}`;
    const body = whatsappTextNotification({
      phoneNumberId: graph.options.phoneNumberId,
      from,
      text: 'hello',
      id: `wamid.twice-${sender}`,
    });
    await signed(body).expect(200);
    await signed(body).expect(200);
    const conversation = await conversationOf(from);
    await repliesSettled(t);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, conversation.id);
    expect(messages.map((m) => m.message)).toEqual(['hello', 'Hi from the shop!']);
  });

  it('moves the reply to delivered then read on status callbacks, never back', async () => {
    const from = `2348030000${++sender}`;
    await signed(
      whatsappTextNotification({
        phoneNumberId: graph.options.phoneNumberId,
        from,
        text: 'hello',
        id: `wamid.status-${sender}`,
      }),
    ).expect(200);
    const conversation = await conversationOf(from);
    await repliesSettled(t);
    const replyDelivery = async () =>
      (await allMessages(t, agentId, conversation.id)).find(
        (m) => m.role === 'assistant',
      ) as unknown as {
        delivery: { status: string } | null;
      };
    await pollUntil(replyDelivery, (m) => m?.delivery?.status === 'sent', 10_000, 25);
    const send = await t
      .dataSource()
      .getRepository(ChannelSendEntity)
      .findOneByOrFail({ conversationId: conversation.id });
    const wamid = send.providerMessageId!;
    expect(wamid).toMatch(/^wamid\./);
    for (const status of ['delivered', 'read', 'delivered'] as const) {
      await signed(whatsappStatusNotification({ id: wamid, status, recipient: from })).expect(200);
    }
    const { value } = await pollUntil(
      replyDelivery,
      (m) => m?.delivery?.status === 'read',
      10_000,
      25,
    );
    expect(value?.delivery?.status).toBe('read');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await replyDelivery()).delivery?.status).toBe('read');
  });

  it('refuses an unsigned body that is not JSON with 401, before reading it', async () => {
    for (const raw of ['{"object":', 'not json at all', '\u0000']) {
      await post(null, undefined, raw).expect(401);
      await post(null, 'sha256=' + '0'.repeat(64), raw).expect(401);
    }
    await t.http().post(webhookPath).set('Content-Type', 'text/plain').send('hello').expect(401);
  });

  it('refuses malformed bodies with a valid signature, storing nothing', async () => {
    for (const raw of ['{"object":', '[]', '"text"', JSON.stringify({ entry: 'x'.repeat(1000) })]) {
      const res = await post(null, signMeta(raw, APP_SECRET), raw);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('answers 404 for an unknown or disconnected channel', async () => {
    await t.http().post('/api/v1/channels/not-an-id/webhook').send({}).expect(404);
    // No TEST_WHATSAPP_* settings: the shared test number is as unknown as any other channel.
    await t
      .http()
      .post('/api/v1/channels/test-whatsapp/webhook')
      .set('X-Hub-Signature-256', signMeta('{}', ''))
      .send({})
      .expect(404);
    await t
      .http()
      .get(
        '/api/v1/channels/test-whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1',
      )
      .expect(404);
    await t
      .http()
      .post(`/api/v1/channels/${agentId}/webhook`)
      .set('X-Hub-Signature-256', signMeta('{}', APP_SECRET))
      .send({})
      .expect(404);
  });
});
