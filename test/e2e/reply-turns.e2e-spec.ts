import { createAgent } from '../factories/agents';
import { allMessages, conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { connectWebchat } from '../factories/channels';
import { startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';

/**
 * docs/api.md §5, back-pressure: past REPLY_WAITING_MAX replies waiting for a slot, a new customer
 * message waits for one more reply to be written before it is stored.
 */
describe('customer messages taking turns with the replies', () => {
  let t: TestApp;
  let llm: LlmStub;
  let agentId: string;

  beforeAll(async () => {
    llm = await startLlmStub();
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      // A hung model call gives up after 1 s, well within the 2 s a message may wait its turn.
      LLM_TIMEOUT_MS: '1000',
      REPLY_WAITING_MAX: '1',
    });
    const workflow = await createWorkflow(t, { name: 'Shop' });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
  });
  /** The conversation's first four messages: the customer's texts, and each reply as 'reply'. */
  const firstTurns = async (conversationId: string) =>
    (await allMessages(t, agentId, conversationId))
      .slice(0, 4)
      .map((m) => (m.role === 'user' ? m.message : 'reply'));

  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  it('stores a message sent past the bound only after the reply in the works is written', async () => {
    llm.behaviour = 'hang';
    const first = await sendAs(t, agentId, 'turns-1', 'Which sizes do you have?');
    const path = `${conversationsPath(agentId)}/${first.conversation_id}/messages`;
    // Under the bound (nothing waits for a slot yet): taken at once, ahead of the first reply.
    await t.api().post(path).send({ message: 'Second question' }).expect(201);
    // Now one reply waits behind the running one: this message waits for the running one.
    await t.api().post(path).send({ message: 'Third question' }).expect(201);
    llm.behaviour = 'answer';
    await repliesSettled(t);

    expect(await firstTurns(first.conversation_id)).toEqual([
      'Which sizes do you have?',
      'Second question',
      'reply',
      'Third question',
    ]);
  });

  it('makes a web-chat visitor’s message wait its turn the same way', async () => {
    const { widget } = await connectWebchat(t, agentId, 'https://shop.example');
    const token = (await widget('post', '/sessions').send({}).expect(201)).body.data.visitor_token;
    const say = (message: string) =>
      widget('post', '/messages').send({ visitor_token: token, message }).expect(201);

    llm.behaviour = 'hang';
    const first = await say('Do you deliver?');
    await say('Second question');
    await say('Third question');
    llm.behaviour = 'answer';
    await repliesSettled(t);

    expect(await firstTurns(first.body.data.conversation_id)).toEqual([
      'Do you deliver?',
      'Second question',
      'reply',
      'Third question',
    ]);
  });
});
