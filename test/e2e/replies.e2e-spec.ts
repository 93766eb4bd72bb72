import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { createKnowledgeBase } from '../factories/knowledge-bases';

const HANDOFF =
  /^Thanks for your message\. Someone from the .+ team will get back to you shortly\.$/;

const WORKFLOW = {
  name: 'Shop assistant',
  system_prompt: 'You are {{agent.name}} of {{agent.business_name}}. Be brief.',
  rules: [
    {
      name: 'Greeting',
      trigger: 'hello, good morning',
      response: 'Hi! I am {{agent.name}} from {{agent.business_name}}.',
      enabled: true,
    },
    {
      name: 'Human',
      trigger: 'talk to a human, agent please',
      response: 'Connecting you to a person.',
      action: 'escalate',
      enabled: true,
    },
    { name: 'Off', trigger: 'discount', response: 'Never shown', enabled: false },
  ],
  flows: [
    {
      name: 'Refund',
      priority: 1,
      is_active: true,
      trigger_keywords: [
        { keyword: 'refund', weight: 'high' },
        { keyword: 'money back', weight: 'medium' },
      ],
      conversation_steps: [
        { type: 'message', content: 'Sorry about that. What is your order number?' },
        { type: 'action', action: 'lookup_order' },
        {
          type: 'message',
          content: 'Thanks. Your refund is on its way, {{agent.name}} will confirm by email.',
        },
      ],
    },
    {
      name: 'Delivery',
      priority: 5,
      is_active: true,
      trigger_keywords: [{ keyword: 'delivery', weight: 'low' }, { keyword: 'order' }],
      conversation_steps: [{ type: 'message', content: 'Deliveries take one day in Lagos.' }],
    },
    {
      name: 'Tracking',
      priority: 9,
      is_active: true,
      trigger_keywords: [{ keyword: 'delivery', weight: 'low' }, { keyword: 'order' }],
      conversation_steps: [{ type: 'message', content: 'Track your order at /track.' }],
    },
    {
      name: 'Holidays',
      trigger_keywords: [{ keyword: 'holiday' }],
      conversation_steps: [{ type: 'message', content: 'We close on public holidays.' }],
    },
    {
      name: 'Inactive',
      is_active: false,
      trigger_keywords: [{ keyword: 'warranty', weight: 'high' }],
      conversation_steps: [{ type: 'message', content: 'Never shown' }],
    },
  ],
};

describe('replies from the built-in engine', () => {
  let t: TestApp;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const workflow = await createWorkflow(t, WORKFLOW);
    agentId = (
      await createAgent(t, { workflow_id: workflow.id, name: 'Ada', business_name: 'Ada Foods' })
    ).id;
    await createKnowledgeBase(t, agentId, {
      type: 'text',
      name: 'Store facts',
      content:
        'Our shop opens at 9am and closes at 6pm from Monday to Saturday.\n\n' +
        'We accept payment by card, bank transfer and cash on collection.\n\n' +
        'Fresh bread is baked every morning and sold out by noon.',
    });
  });
  afterAll(() => t.close());

  /** Sends `text` as a new user and returns the reply it got, with the conversation afterwards. */
  async function ask(text: string, agent = agentId) {
    const sent = await sendAs(t, agent, `u-${Math.random()}`, text);
    await repliesSettled(t);
    const messages = await allMessages(t, agent, sent.conversation_id);
    const conversation = (await t.api().get(`${conversationsPath(agent)}/${sent.conversation_id}`))
      .body.data;
    return { reply: messages.at(-1)!, conversation, conversationId: sent.conversation_id };
  }

  it('answers a matching rule, case-insensitively on word boundaries, with placeholders filled', async () => {
    const { reply, conversation } = await ask('HELLO there');
    expect(reply).toMatchObject({ role: 'assistant', message: 'Hi! I am Ada from Ada Foods.' });
    expect(conversation.needs_attention).toBe(false);
    expect((await ask('Good   morning!')).reply.message).toBe('Hi! I am Ada from Ada Foods.');
    expect((await ask('othello is a play')).reply.message).not.toBe('Hi! I am Ada from Ada Foods.');
  });

  it('picks the first enabled matching rule among 2,000 trigger phrases, and follows the workflow when it changes', async () => {
    const fillers = Array.from({ length: 398 }, (_, i) => ({
      name: `Code ${i}`,
      trigger: ['a', 'b', 'c', 'd', 'e'].map((letter) => `code${i}${letter}`).join(', '),
      response: `Code ${i}`,
    }));
    const workflow = await createWorkflow(t, {
      name: 'Many triggers',
      rules: [
        ...fillers,
        { name: 'Off', trigger: 'ürün iade', response: 'Off', enabled: false },
        { name: 'Returns', trigger: 'ürün iade, café crème, talk to a human', response: 'Returns' },
        { name: 'Later', trigger: 'iade, café, çay, thé, tea, chá', response: 'Later' },
      ],
    });
    const agent = (await createAgent(t, { workflow_id: workflow.id, name: 'Many' })).id;
    const replyTo = async (text: string) => (await ask(text, agent)).reply.message;

    expect(await replyTo('Bu ÜRÜN IADE edilebilir mi?')).toBe('Returns');
    expect(await replyTo('un CAFÉ  crème, svp')).toBe('Returns');
    expect(await replyTo('just iade')).toBe('Later');
    expect(await replyTo('my code is CODE7C!')).toBe('Code 7');
    expect(await replyTo('ürünler iadesi, cafés')).toMatch(HANDOFF);

    await t
      .api()
      .patch(`${API}/workflows/${workflow.id}`)
      .send({ rules: [{ name: 'New', trigger: 'café', response: 'New rules' }] })
      .expect(200);
    expect(await replyTo('un café crème')).toBe('New rules');
  });

  it('escalates when the rule says so', async () => {
    const { reply, conversation } = await ask('Can I talk to a human?');
    expect(reply.message).toBe('Connecting you to a person.');
    expect(conversation.needs_attention).toBe(true);
  });

  it('ignores disabled rules and inactive flows', async () => {
    expect((await ask('any discount today?')).reply.message).not.toBe('Never shown');
    expect((await ask('what about the warranty?')).reply.message).not.toBe('Never shown');
  });

  it('starts the best-scoring flow, then continues it step by step', async () => {
    const first = await ask('I want a refund for my order');
    expect(first.reply.message).toBe('Sorry about that. What is your order number?');
    const next = await sendTo(t, agentId, first.conversationId, 'It is 12345');
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, first.conversationId);
    expect(messages.at(-1)!.message).toBe(
      'Thanks. Your refund is on its way, Ada will confirm by email.',
    );
    expect(messages.at(-2)!.id).toBe(next.id);
    await sendTo(t, agentId, first.conversationId, 'When do you open?');
    await repliesSettled(t);
    expect((await allMessages(t, agentId, first.conversationId)).at(-1)!.message).toMatch(
      /opens at 9am/,
    );
  });

  it('runs a flow sent without is_active, which is active', async () => {
    expect((await ask('Are you open on the holiday?')).reply.message).toBe(
      'We close on public holidays.',
    );
  });

  it('breaks a tie in keyword score by priority', async () => {
    expect((await ask('where is my delivery')).reply.message).toBe('Track your order at /track.');
  });

  it('answers from the best knowledge passage', async () => {
    const { reply, conversation } = await ask('Can I pay by bank transfer?');
    expect(reply.message).toBe('We accept payment by card, bank transfer and cash on collection.');
    expect(conversation.needs_attention).toBe(false);
    expect((await ask('Is the bread fresh?')).reply.message).toBe(
      'Fresh bread is baked every morning and sold out by noon.',
    );
  });

  it('uses knowledge added after the first question', async () => {
    expect((await ask('Do you sell gift cards?')).reply.message).toMatch(HANDOFF);
    await createKnowledgeBase(t, agentId, {
      type: 'text',
      name: 'Gifts',
      content: 'Gift cards are sold in the shop in any amount.',
    });
    expect((await ask('Do you sell gift cards?')).reply.message).toBe(
      'Gift cards are sold in the shop in any amount.',
    );
  });

  it('hands off, raising needs_attention, when nothing matches', async () => {
    const { reply, conversation } = await ask('Quantum chromodynamics?');
    expect(reply.message).toMatch(HANDOFF);
    expect(conversation.needs_attention).toBe(true);
  });

  it('clears needs_attention when a person answers', async () => {
    const { conversationId } = await ask('Quantum chromodynamics again?');
    await sendTo(t, agentId, conversationId, 'I can help with that.', 'assistant');
    const conversation = (await t.api().get(`${conversationsPath(agentId)}/${conversationId}`)).body
      .data;
    expect(conversation.needs_attention).toBe(false);
  });
});

describe('replies from an OpenAI-compatible model', () => {
  let t: TestApp;
  let llm: LlmStub;
  let agentId: string;

  beforeAll(async () => {
    llm = await startLlmStub();
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '500',
    });
    const workflow = await createWorkflow(t, WORKFLOW);
    agentId = (
      await createAgent(t, { workflow_id: workflow.id, name: 'Ada', business_name: 'Ada Foods' })
    ).id;
    await createKnowledgeBase(t, agentId, {
      type: 'text',
      name: 'Facts',
      content: 'Deliveries in Lagos take one day.\n\nWe are closed on Sundays.',
    });
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  it('keeps the rules and flows first: a greeting rule answers without the model', async () => {
    llm.requests.length = 0;
    const sent = await sendAs(t, agentId, 'llm-rule', 'hello');
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.at(-1)!.message).toBe('Hi! I am Ada from Ada Foods.');
    expect(llm.requests).toHaveLength(0);
  });

  it('sends the system prompt, the best knowledge and the history, and posts the answer', async () => {
    llm.behaviour = 'answer';
    llm.answer = 'Delivery takes one day in Lagos.';
    const first = await sendAs(t, agentId, 'llm-user', 'hi');
    await repliesSettled(t);
    llm.requests.length = 0;
    await sendTo(t, agentId, first.conversation_id, 'How long do deliveries to Lagos take?');
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, first.conversation_id);
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      message: 'Delivery takes one day in Lagos.',
    });
    expect(llm.requests).toHaveLength(1);
    const request = llm.requests[0];
    expect(request.model).toBe('test-model');
    expect(request.messages[0].role).toBe('system');
    expect(request.messages[0].content).toContain('You are Ada of Ada Foods. Be brief.');
    expect(request.messages[0].content).toContain('Deliveries in Lagos take one day.');
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Delivery takes one day in Lagos.' },
      { role: 'user', content: 'How long do deliveries to Lagos take?' },
    ]);
  });

  it.each(['hang', 'error', 'empty'] as const)(
    'falls back to the hand-off line when the model %s',
    async (behaviour) => {
      llm.behaviour = behaviour;
      const sent = await sendAs(t, agentId, `fallback-${behaviour}`, 'Are you there?');
      await repliesSettled(t);
      const messages = await allMessages(t, agentId, sent.conversation_id);
      expect(messages.at(-1)!.message).toMatch(HANDOFF);
      const conversation = (
        await t.api().get(`${conversationsPath(agentId)}/${sent.conversation_id}`)
      ).body.data;
      expect(conversation.needs_attention).toBe(true);
    },
  );
});
