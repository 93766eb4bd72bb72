import { createAgent } from '../factories/agents';
import { connectWhatsApp } from '../factories/channels';
import { allMessages, conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { FakeGraphApi } from '../support/fake-graph-api';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { recordSecret } from '../support/log-capture';
import { postSignedNotification, whatsappTextNotification } from '../support/meta-notifications';

const ORIGIN = 'https://shop.example';
const APP_SECRET = 'backpressure-app-secret';

/** docs/api.md §5: past REPLY_BACKLOG_MAX waiting replies, new customer messages get 503. */
describe('back-pressure on customer messages', () => {
  let t: TestApp;
  let llm: LlmStub;
  let graph: FakeGraphApi;
  let agentId: string;
  let pk: string;
  let channelId: string;

  beforeAll(async () => {
    llm = await startLlmStub();
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_TIMEOUT_MS: '1500',
      REPLY_BACKLOG_MAX: '1',
      PUBLIC_URL: 'https://console.example.com',
      META_GRAPH_BASE_URL: graph.url,
      WIDGET_RATE_LIMIT_MAX: '1000',
    });
    const workflow = await createWorkflow(t, { name: 'Shop' });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    pk = (
      await t
        .api()
        .post(`${API}/agents/${agentId}/channels/webchat/connect`)
        .send({ allowed_origins: [ORIGIN] })
        .expect(200)
    ).body.data.publishable_key;
    channelId = (await connectWhatsApp(t, agentId, graph, APP_SECRET)).id;
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await graph.close();
  });

  it('refuses customer messages with 503 and Retry-After while a reply is in the works, storing nothing', async () => {
    llm.behaviour = 'hang';
    const first = await sendAs(t, agentId, 'busy-1', 'Which sizes do you have?');
    const path = `${conversationsPath(agentId)}/${first.conversation_id}/messages`;

    const refused = await t.api().post(path).send({ message: 'Hello?' }).expect(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toMatchObject({ code: 'internal_error', statusCode: 503 });
    expect(refused.body.message).toMatch(/replies are waiting/);
    await t
      .api()
      .post(`${conversationsPath(agentId)}/messages`)
      .send({ message: 'New here', channel_type: 'webchat', channel_user_id: 'busy-2' })
      .expect(503);
    const widget = await t
      .http()
      .post('/api/v1/widget/messages')
      .set('Authorization', `Bearer ${pk}`)
      .set('Origin', ORIGIN)
      .send({ visitor_token: await visitor(), message: 'Anyone?' })
      .expect(503);
    expect(widget.headers['retry-after']).toBe('5');
    const notification = whatsappTextNotification({
      phoneNumberId: graph.options.phoneNumberId,
      from: '2348030000001',
      text: 'Hello from WhatsApp',
    });
    expect(await postSignedNotification(t.url, channelId, notification, APP_SECRET)).toBe(503);

    // An operator's message needs no reply: it is taken.
    await t.api().post(path).send({ message: 'Looking into it', role: 'assistant' }).expect(201);

    // The hung model call times out, its reply falls back, and messages are taken again.
    llm.behaviour = 'answer';
    await repliesSettled(t);
    await t.api().post(path).send({ message: 'Still there?' }).expect(201);
    await repliesSettled(t);
    const texts = (await allMessages(t, agentId, first.conversation_id)).map((m) => m.message);
    expect(texts).not.toContain('Hello?');
    const conversations = (await t.api().get(conversationsPath(agentId)).expect(200)).body.data;
    expect(conversations.map((c: { channel_user_id: string }) => c.channel_user_id)).toEqual([
      'busy-1',
    ]);
  });

  async function visitor(): Promise<string> {
    const session = await t
      .http()
      .post('/api/v1/widget/sessions')
      .set('Authorization', `Bearer ${pk}`)
      .set('Origin', ORIGIN)
      .send({})
      .expect(201);
    return session.body.data.visitor_token;
  }
});
