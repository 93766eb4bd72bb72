import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { WebhookReceiver } from '../support/webhook-receiver';

const MODEL_ANSWER = 'Our shoes come in sizes 36 to 46.';
const RULES = [
  {
    name: 'Wants Kemi',
    trigger: 'talk to kemi',
    response: 'Kemi will be with you shortly.',
    action: 'escalate',
    enabled: true,
  },
];

describe('take-over: a hand-off and an operator reply stop the AI', () => {
  let t: TestApp;
  let llm: LlmStub;
  let receiver: WebhookReceiver;
  let agentId: string;
  let base: string;
  let user = 0;

  beforeAll(async () => {
    llm = await startLlmStub();
    llm.answer = MODEL_ANSWER;
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '2000',
    });
    const workflow = await createWorkflow(t, { name: 'Shoes', rules: RULES });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createKnowledgeBase(t, agentId, {
      type: 'text',
      name: 'Sizes',
      content: 'Our shoes come in sizes 36 to 46.',
    });
    await createWebhook(t, receiver.url, [
      'conversation.handed_off',
      'conversation.needs_attention',
      'conversation.status_changed',
    ]);
    base = conversationsPath(agentId);
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await receiver.close();
  });

  const detail = async (id: string) => (await t.api().get(`${base}/${id}`).expect(200)).body.data;
  const setAgent = (body: object) => t.api().patch(`${API_AGENT()}`).send(body).expect(200);
  const API_AGENT = () => base.replace(/\/conversations$/, '');

  const eventsOf = (type: string, id: string) =>
    receiver.ofType(type).filter((e) => e.body.data.id === id);

  it('the model would answer a customer nobody took over', async () => {
    const sent = await sendAs(t, agentId, `takeover-${++user}`, 'Which sizes do you have?');
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.at(-1)).toMatchObject({ message: MODEL_ANSWER, author: { type: 'ai' } });
    expect(await detail(sent.conversation_id)).toMatchObject({
      is_ai_chat_paused: false,
      handoff: null,
    });
  });

  it("a rule's hand-off records why, pauses the AI, keeps the status, and is announced", async () => {
    const sent = await sendAs(t, agentId, `takeover-${++user}`, 'Can I talk to Kemi?');
    await repliesSettled(t);
    const id = sent.conversation_id;
    const conversation = await detail(id);
    expect(conversation).toMatchObject({
      status: 'open',
      is_ai_chat_paused: true,
      needs_attention: true,
      handoff: { reason: 'Wants Kemi', source: 'rule', at: expect.any(String) },
    });
    await receiver.waitFor(() => eventsOf('conversation.handed_off', id).length === 1);
    expect(eventsOf('conversation.handed_off', id)[0].body.data.handoff).toEqual(
      conversation.handoff,
    );

    // The question asked of Kemi is not answered by the AI, now or later.
    const calls = llm.requests.length;
    await sendTo(t, agentId, id, 'Which sizes do you have?');
    await repliesSettled(t);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(llm.requests.length).toBe(calls);
    expect((await allMessages(t, agentId, id)).at(-1)).toMatchObject({
      message: 'Which sizes do you have?',
      author: { type: 'customer' },
    });
    // Announced once in the stretch: the hand-off's own announcement.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eventsOf('conversation.needs_attention', id)).toHaveLength(1);
  });

  it('a no-answer hand-off says so', async () => {
    llm.behaviour = 'error';
    try {
      const sent = await sendAs(t, agentId, `takeover-${++user}`, 'xyzzy plugh');
      await repliesSettled(t);
      const id = sent.conversation_id;
      expect(await detail(id)).toMatchObject({
        is_ai_chat_paused: true,
        handoff: { reason: 'no answer found', source: 'no_answer' },
      });
      await receiver.waitFor(() => eventsOf('conversation.handed_off', id).length === 1);
    } finally {
      llm.behaviour = 'answer';
    }
  });

  it('an operator reply pauses the AI; customers then raise attention once per stretch', async () => {
    const sent = await sendAs(t, agentId, `takeover-${++user}`, 'Which sizes do you have?');
    await repliesSettled(t);
    const id = sent.conversation_id;
    await sendTo(t, agentId, id, 'Hi, Kemi here.', 'assistant');
    expect(await detail(id)).toMatchObject({ is_ai_chat_paused: true, needs_attention: false });

    const calls = llm.requests.length;
    for (const text of ['Do you have 47?', 'Or 48?']) {
      await sendTo(t, agentId, id, text);
    }
    await repliesSettled(t);
    expect(llm.requests.length).toBe(calls);
    expect((await allMessages(t, agentId, id)).at(-1)!.message).toBe('Or 48?');
    expect((await detail(id)).needs_attention).toBe(true);
    await receiver.waitFor(() => eventsOf('conversation.needs_attention', id).length >= 1);
    // An operator answering does not start a new stretch.
    await sendTo(t, agentId, id, 'Let me check.', 'assistant');
    await sendTo(t, agentId, id, 'Thanks');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(eventsOf('conversation.needs_attention', id)).toHaveLength(1);

    // Resolving ends the stretch and resumes the AI: the model answers again.
    const resolved = await t.api().patch(`${base}/${id}`).send({ status: 'resolved' }).expect(200);
    expect(resolved.body.data).toMatchObject({ is_ai_chat_paused: false, needs_attention: false });
    await sendTo(t, agentId, id, 'Which sizes do you have?');
    await repliesSettled(t);
    expect((await allMessages(t, agentId, id)).at(-1)).toMatchObject({
      message: MODEL_ANSWER,
      author: { type: 'ai' },
    });
    expect((await detail(id)).status).toBe('open');

    // A new stretch is announced again.
    await sendTo(t, agentId, id, 'Kemi again.', 'assistant');
    await sendTo(t, agentId, id, 'Hello?');
    await receiver.waitFor(() => eventsOf('conversation.needs_attention', id).length === 2);
  });

  it('resuming the AI ends the stretch: the model answers, and the next pause is announced', async () => {
    const sent = await sendAs(t, agentId, `takeover-${++user}`, 'Which sizes do you have?');
    await repliesSettled(t);
    const id = sent.conversation_id;
    await sendTo(t, agentId, id, 'Kemi here.', 'assistant');
    await sendTo(t, agentId, id, 'Do you have 47?');
    await receiver.waitFor(() => eventsOf('conversation.needs_attention', id).length === 1);
    const resumed = await t
      .api()
      .patch(`${base}/${id}/ai-status`)
      .send({ is_ai_chat_paused: false })
      .expect(200);
    expect(resumed.body.data).toEqual({ is_ai_chat_paused: false });
    await sendTo(t, agentId, id, 'Which sizes do you have?');
    await repliesSettled(t);
    expect((await allMessages(t, agentId, id)).at(-1)!.message).toBe(MODEL_ANSWER);
    await t.api().patch(`${base}/${id}/ai-status`).send({ is_ai_chat_paused: true }).expect(200);
    await sendTo(t, agentId, id, 'Hello?');
    await receiver.waitFor(() => eventsOf('conversation.needs_attention', id).length === 2);
    expect((await detail(id)).status).toBe('open');
  });

  it("the agent's settings can leave the AI running", async () => {
    const agent = await setAgent({ handoff_pauses_ai: false, operator_reply_pauses_ai: false });
    expect(agent.body.data).toMatchObject({
      handoff_pauses_ai: false,
      operator_reply_pauses_ai: false,
    });
    try {
      const sent = await sendAs(t, agentId, `takeover-${++user}`, 'Can I talk to Kemi?');
      await repliesSettled(t);
      const id = sent.conversation_id;
      expect(await detail(id)).toMatchObject({
        is_ai_chat_paused: false,
        handoff: { source: 'rule' },
      });
      await sendTo(t, agentId, id, 'Kemi here.', 'assistant');
      expect((await detail(id)).is_ai_chat_paused).toBe(false);
      await sendTo(t, agentId, id, 'Which sizes do you have?');
      await repliesSettled(t);
      expect((await allMessages(t, agentId, id)).at(-1)!.message).toBe(MODEL_ANSWER);
    } finally {
      await setAgent({ handoff_pauses_ai: true, operator_reply_pauses_ai: true });
    }
    const read = await t.api().get(API_AGENT()).expect(200);
    expect(read.body.data).toMatchObject({
      handoff_pauses_ai: true,
      operator_reply_pauses_ai: true,
    });
    await t.api().patch(API_AGENT()).send({ handoff_pauses_ai: 'no' }).expect(400);
  });
});
