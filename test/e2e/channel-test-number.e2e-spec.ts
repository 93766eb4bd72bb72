import { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import { TestChannelBindingEntity } from '@/modules/channels/entities/test-number.entity';
import { createAgent } from '../factories/agents';
import { allMessages, conversationsPath, repliesSettled } from '../factories/conversations';
import { API, startTestApp, TestApp, TeamKey } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import {
  FakeGraphApi,
  signMeta,
  whatsappStatusNotification,
  whatsappTextNotification,
} from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { pollUntil, sleep } from '../support/wait';

const TEST_PHONE_NUMBER_ID = '109876543210';
const TEST_TOKEN = 'EAAsharedtestnumber';
const APP_SECRET = 'shared-test-app-secret';
const VERIFY_TOKEN = 'shared-test-verify-token';
const WEBHOOK = '/api/v1/channels/test-whatsapp/webhook';

const bodyText = (body: unknown) => (body as { text?: { body?: string } }).text?.body;

interface Agent {
  id: string;
  test_channel_code: string;
  key: string;
}

/**
 * docs/api.md §4d, the test code: the installation's shared WhatsApp number (TEST_WHATSAPP_*),
 * where a person who sends an agent's test code talks to that agent's test conversation.
 */
describe('channel webhooks: the shared WhatsApp test number', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let other: TeamKey;
  let ada: Agent;
  let bola: Agent;
  let sender = 0;

  const nextSender = () => `2348090000${String(++sender).padStart(3, '0')}`;
  const post = (body: unknown, signature?: string) => {
    const request = t
      .http()
      .post(WEBHOOK)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
    return signature === undefined ? request : request.set('X-Hub-Signature-256', signature);
  };
  const signed = (body: unknown) => post(body, signMeta(JSON.stringify(body), APP_SECRET));
  const text = (from: string, message: string, id?: string) =>
    signed(
      whatsappTextNotification({
        phoneNumberId: TEST_PHONE_NUMBER_ID,
        from,
        name: 'Tester Tola',
        text: message,
        id,
      }),
    ).expect(200);
  const conversationsOf = (from: string) =>
    t.dataSource().getRepository(ConversationEntity).findBy({ channelUserId: from });
  const conversationOf = async (agent: Agent, from: string, count = 1) => {
    const { value } = await pollUntil(
      async () => {
        const list = (
          await t
            .api(agent.key)
            .get(`${conversationsPath(agent.id)}?search=${from}`)
            .expect(200)
        ).body.data as Array<{ id: string }>;
        const messages = list[0] ? await allMessages(t, agent.id, list[0].id, agent.key) : [];
        return { conversation: list[0], messages };
      },
      ({ messages }) => messages.filter((m) => m.role === 'user').length >= count,
      10_000,
      25,
    );
    return value as {
      conversation: Record<string, unknown> & { id: string };
      messages: Array<{ role: string; message: string }>;
    };
  };
  const sendsTo = async (from: string, count: number) => {
    const { value } = await pollUntil(
      async () =>
        graph.requestsOf('messages').filter((r) => (r.body as { to?: string }).to === from),
      (requests) => requests.length >= count,
      10_000,
      25,
    );
    return value;
  };
  const agentIn = async (key: string, name: string): Promise<Agent> => {
    const workflow = await createWorkflow(
      t,
      {
        name: `${name} workflow`,
        rules: [
          { name: 'Greeting', trigger: 'hello', response: `Hi, ${name} here`, enabled: true },
        ],
      },
      key,
    );
    return { ...(await createAgent(t, { workflow_id: workflow.id, name }, key)), key } as Agent;
  };

  beforeAll(async () => {
    graph = await FakeGraphApi.start({
      phoneNumberId: TEST_PHONE_NUMBER_ID,
      accessToken: TEST_TOKEN,
    });
    recordSecret('integration secret', TEST_TOKEN);
    recordSecret('integration secret', APP_SECRET);
    recordSecret('integration secret', VERIFY_TOKEN);
    t = await startTestApp({
      META_GRAPH_BASE_URL: graph.url,
      TEST_WHATSAPP_NUMBER: '+15550001234',
      TEST_WHATSAPP_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
      TEST_WHATSAPP_ACCESS_TOKEN: TEST_TOKEN,
      TEST_WHATSAPP_APP_SECRET: APP_SECRET,
      TEST_WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    });
    other = await t.createKey('other-team', ['*']);
    ada = await agentIn(t.key, 'Ada');
    bola = await agentIn(other.key, 'Bola');
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
    await graph.close();
  });

  it('shows the number in the agent test code answer', async () => {
    const res = await t.api().get(`${API}/agents/${ada.id}/deployment/agent-test-code`).expect(200);
    expect(res.body.data.channels.whatsapp).toMatchObject({
      is_enabled: true,
      phone_number: '+15550001234',
      start_message: `TEST-${ada.test_channel_code}`,
    });
  });

  it("answers Meta's verification with the configured verify token only", async () => {
    const ok = await t
      .http()
      .get(`${WEBHOOK}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=8812`)
      .expect(200);
    expect(ok.text).toBe('8812');
    await t
      .http()
      .get(`${WEBHOOK}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)
      .expect(403);
  });

  it('binds the sender of a test code to the agent and answers from the test number', async () => {
    const from = nextSender();
    await text(from, `  test-${ada.test_channel_code.toLowerCase()} `);
    const { conversation, messages } = await conversationOf(ada, from);
    expect(conversation).toMatchObject({
      channel_type: 'whatsapp',
      channel_id: 'test-whatsapp',
      channel_user_id: from,
      channel_user_username: 'Tester Tola',
      is_test_channel: true,
    });
    expect(messages[0]).toMatchObject({ role: 'user' });
    await repliesSettled(t);

    await text(from, 'hello');
    const later = await conversationOf(ada, from, 2);
    expect(later.conversation.id).toBe(conversation.id);
    const { value: sends } = await pollUntil(
      async () =>
        graph.requestsOf('messages').filter((r) => (r.body as { to?: string }).to === from),
      (requests) => requests.some((r) => bodyText(r.body) === 'Hi, Ada here'),
      10_000,
      25,
    );
    expect(sends.map((r) => bodyText(r.body))).toEqual([
      'You are now testing Ada. Your messages here go to this agent until you send another test code.',
      'Hi, Ada here',
    ]);
    expect((await allMessages(t, ada.id, conversation.id)).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(sends.every((r) => r.path === `/${TEST_PHONE_NUMBER_ID}/messages`)).toBe(true);
    expect(sends.every((r) => r.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
  });

  it("rebinds on another agent's code, in another team too", async () => {
    const from = nextSender();
    await text(from, ada.test_channel_code);
    await conversationOf(ada, from);
    await text(from, `TEST-${bola.test_channel_code}`);
    await conversationOf(bola, from);
    await text(from, 'hello');
    const { messages } = await conversationOf(bola, from, 2);
    expect(messages.filter((m) => m.role === 'user').map((m) => m.message)).toEqual([
      `TEST-${bola.test_channel_code}`,
      'hello',
    ]);
    await repliesSettled(t);
    const atAda = await conversationOf(ada, from);
    expect(atAda.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    await t
      .api(other.key)
      .get(`${conversationsPath(ada.id)}`)
      .expect(404);
  });

  it('stores nothing for a sender bound to no agent', async () => {
    const from = nextSender();
    await text(from, 'hello, is anyone there? my card is 4111 1111 1111 1111');
    await text(from, 'TEST-ZZZZZZZZ');
    await sleep(500);
    expect(await conversationsOf(from)).toHaveLength(0);
    expect(
      graph.requestsOf('messages').filter((r) => (r.body as { to: string }).to === from),
    ).toEqual([]);
    expect(t.logLines().some((line) => line.includes('4111 1111'))).toBe(false);
  });

  it('refuses a missing or wrong signature (401), storing nothing', async () => {
    const from = nextSender();
    const body = whatsappTextNotification({
      phoneNumberId: TEST_PHONE_NUMBER_ID,
      from,
      text: ada.test_channel_code,
    });
    await post(body).expect(401);
    await post(body, signMeta(JSON.stringify(body), 'another-secret')).expect(401);
    await sleep(300);
    expect(await conversationsOf(from)).toHaveLength(0);
    expect(
      await t.dataSource().getRepository(TestChannelBindingEntity).findBy({ channelUserId: from }),
    ).toHaveLength(0);
  });

  it('takes a redelivered message in once, and moves the reply on status callbacks', async () => {
    const from = nextSender();
    const id = `wamid.test-number-${from}`;
    await text(from, ada.test_channel_code);
    await conversationOf(ada, from);
    await text(from, 'hello', id);
    await text(from, 'hello', id);
    const { conversation } = await conversationOf(ada, from, 2);
    await repliesSettled(t);
    const reply = async () =>
      (await allMessages(t, ada.id, conversation.id)).filter(
        (m) => m.role === 'assistant' && m.message === 'Hi, Ada here',
      ) as unknown as Array<{ delivery: { status: string } | null }>;
    const { value: sent } = await pollUntil(
      reply,
      (replies) => replies[0]?.delivery?.status === 'sent',
      10_000,
      25,
    );
    expect(sent).toHaveLength(1);
    const user = (await allMessages(t, ada.id, conversation.id)).filter((m) => m.role === 'user');
    expect(user.map((m) => m.message)).toEqual([ada.test_channel_code, 'hello']);
    expect((await sendsTo(from, 1)).map((r) => bodyText(r.body))).toContain('Hi, Ada here');
    const wamid = (
      await t
        .dataSource()
        .query<Array<{ provider_message_id: string }>>(
          `SELECT provider_message_id FROM channel_sends WHERE conversation_id = '${conversation.id}' AND provider_message_id IS NOT NULL`,
        )
    ).map((row) => row.provider_message_id);
    for (const providerId of wamid) {
      await signed(
        whatsappStatusNotification({
          id: providerId,
          status: 'read',
          recipient: from,
          phoneNumberId: TEST_PHONE_NUMBER_ID,
        }),
      ).expect(200);
    }
    const { value: read } = await pollUntil(
      reply,
      (replies) => replies[0]?.delivery?.status === 'read',
      10_000,
      25,
    );
    expect(read[0].delivery?.status).toBe('read');
  });

  it('forgets the binding with its agent', async () => {
    const from = nextSender();
    const carla = await agentIn(t.key, 'Carla');
    await text(from, carla.test_channel_code);
    await conversationOf(carla, from);
    await repliesSettled(t);
    await t.api().delete(`${API}/agents/${carla.id}`).expect(200);
    const bindings = t.dataSource().getRepository(TestChannelBindingEntity);
    expect(await bindings.findBy({ channelUserId: from })).toHaveLength(0);
    await text(from, 'hello');
    await sleep(500);
    expect(await conversationsOf(from)).toHaveLength(0);
  });
});
