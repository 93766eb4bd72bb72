import { createAgent } from '../factories/agents';
import { allMessages, conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { mailText, SmtpSink } from '../support/smtp-sink';
import { pollUntil } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const REASON = 'The customer wants a refund above what I may grant';
const ENGLISH_LINE =
  'Thanks for your message. Someone from the Kiki Shoes team will get back to you shortly.';

/** docs/api.md §5b: the model hands off (handoff_to_human), and the hand-off line. */
describe('the model hands off to a person', () => {
  let t: TestApp;
  let llm: LlmStub;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let agentId: string;
  let user = 0;

  beforeAll(async () => {
    llm = await startLlmStub();
    smtp = await SmtpSink.start();
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '2000',
      SMTP_URL: smtp.url,
      ESCALATION_EMAIL_COOLDOWN_S: '0',
    });
    const workflow = await createWorkflow(t, { name: 'Shoes' });
    agentId = (
      await createAgent(t, {
        workflow_id: workflow.id,
        name: 'Ada',
        business_name: 'Kiki Shoes',
        escalation_email: 'desk@example.test',
      })
    ).id;
    await createWebhook(t, receiver.url, ['conversation.handed_off']);
  });
  afterEach(() => {
    llm.toolCall = null;
    llm.toolCallText = null;
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await smtp.close();
    await receiver.close();
  });

  const detail = async (id: string) =>
    (
      await t
        .api()
        .get(`${conversationsPath(agentId)}/${id}`)
        .expect(200)
    ).body.data;

  async function handOff(text: string): Promise<string> {
    llm.toolCall = { name: 'handoff_to_human', arguments: { reason: REASON } };
    const sent = await sendAs(t, agentId, `model-handoff-${++user}`, text);
    await repliesSettled(t);
    return sent.conversation_id;
  }

  it('offers the model handoff_to_human beside the actions, with a required reason', async () => {
    llm.answer = 'Hello!';
    await sendAs(t, agentId, `model-handoff-${++user}`, 'Hi');
    await repliesSettled(t);
    const tool = llm.requests.at(-1)!.tools!.find((t) => t.function.name === 'handoff_to_human');
    expect(tool?.function.parameters).toMatchObject({ required: ['reason'] });
  });

  it('records the reason with source model, in the webhook and the mail; the customer reads the line', async () => {
    const id = await handOff('I want a refund of 900 euros now');
    const messages = await allMessages(t, agentId, id);
    expect(messages.at(-1)).toMatchObject({
      message: ENGLISH_LINE,
      author: { type: 'system' },
    });
    expect(await detail(id)).toMatchObject({
      needs_attention: true,
      handoff: { source: 'model', reason: REASON },
    });
    const { value: event } = await pollUntil(
      async () => receiver.ofType('conversation.handed_off').find((e) => e.body.data.id === id),
      (found) => found !== undefined,
      10_000,
    );
    expect(event!.body.data.handoff).toMatchObject({ source: 'model', reason: REASON });
    const { value: mail } = await pollUntil(
      async () => smtp.mails.find((each) => mailText(each).includes(id)),
      (found) => found !== undefined,
      10_000,
    );
    expect(mailText(mail!)).toContain(`Why: ${REASON} (model)`);
  });

  it("sends the model's own words when it writes some beside the call", async () => {
    llm.toolCallText = 'Let me get a colleague who can approve this.';
    const id = await handOff('Refund me 900 euros');
    const messages = await allMessages(t, agentId, id);
    expect(messages.at(-1)).toMatchObject({
      message: 'Let me get a colleague who can approve this.',
      author: { type: 'ai' },
    });
    expect((await detail(id)).handoff).toMatchObject({ source: 'model', reason: REASON });
  });

  it('bounds and tidies the reason, and gives one when the model gives none', async () => {
    llm.toolCall = { name: 'handoff_to_human', arguments: { reason: `  ${'x'.repeat(900)}\n` } };
    const long = await sendAs(t, agentId, `model-handoff-${++user}`, 'Help');
    await repliesSettled(t);
    llm.toolCall = { name: 'handoff_to_human', arguments: {} };
    const none = await sendAs(t, agentId, `model-handoff-${++user}`, 'Help me');
    await repliesSettled(t);
    expect((await detail(long.conversation_id)).handoff.reason).toBe('x'.repeat(500));
    expect((await detail(none.conversation_id)).handoff.reason).toBe(
      'the model asked for a person',
    );
  });
});

describe('the hand-off line', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function lineFor(agent: Record<string, unknown>, workflow: Record<string, unknown> = {}) {
    const created = await createWorkflow(t, { name: 'Desk', ...workflow });
    const { id } = await createAgent(t, { workflow_id: created.id, ...agent });
    const sent = await sendAs(t, id, 'line-customer', 'Where is the moon?');
    await repliesSettled(t);
    return (await allMessages(t, id, sent.conversation_id)).at(-1)!.message;
  }

  it("is written in the agent's language, by code or by name, else in English", async () => {
    expect(await lineFor({ name: 'Amélie', business_name: 'Chez Kiki', language: 'fr' })).toBe(
      "Merci pour votre message. Une personne de l'équipe Chez Kiki vous répondra très bientôt.",
    );
    expect(await lineFor({ name: 'Lola', business_name: 'Kiki', language: 'es-MX' })).toBe(
      'Gracias por tu mensaje. Alguien del equipo de Kiki te responderá en breve.',
    );
    expect(await lineFor({ name: 'Bisi', business_name: 'Kiki', language: 'Yoruba' })).toBe(
      'A dúpẹ́ fún ìfiránṣẹ́ rẹ. Ẹnìkan láti ẹgbẹ́ Kiki yóò dá ọ lóhùn láìpẹ́.',
    );
    expect(await lineFor({ name: 'Aiko', business_name: 'Kiki', language: 'ja' })).toBe(
      'Thanks for your message. Someone from the Kiki team will get back to you shortly.',
    );
  });

  it("is the workflow's handoff_message when it sets one, placeholders filled", async () => {
    const line = await lineFor(
      { name: 'Ada', business_name: 'Kiki Shoes', language: 'fr' },
      {
        prompt_config: {
          handoff_message:
            'Un instant : {{agent.name}} de {{agent.business_name}} vous passe un collègue.',
        },
      },
    );
    expect(line).toBe('Un instant : Ada de Kiki Shoes vous passe un collègue.');
  });
});

describe('hand-offs by the flow and by the customer, without a model', () => {
  let t: TestApp;
  let agentId: string;
  let user = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const workflow = await createWorkflow(t, {
      name: 'Returns desk',
      rules: [
        {
          name: 'Manager',
          trigger: 'speak to the manager',
          response: 'The manager will call you back today.',
          action: 'escalate',
          enabled: true,
        },
      ],
      flows: [
        {
          name: 'Damaged parcel',
          trigger_keywords: [{ keyword: 'damaged', weight: 'high' }],
          conversation_steps: [
            { type: 'collect', content: 'Which order arrived damaged?', key: 'order_id' },
            {
              type: 'message',
              content: 'A colleague will look at order {{order_id}} with you.',
              action: 'escalate',
            },
            { type: 'message', content: 'Never said: the flow ended at the hand-off.' },
          ],
        },
      ],
    });
    agentId = (
      await createAgent(t, { workflow_id: workflow.id, name: 'Ada', business_name: 'Kiki' })
    ).id;
  });
  afterAll(() => t.close());

  const detail = async (id: string) =>
    (
      await t
        .api()
        .get(`${conversationsPath(agentId)}/${id}`)
        .expect(200)
    ).body.data;

  it('hands off at a flow step whose action is escalate, the flow name as the reason', async () => {
    const customer = `flow-${++user}`;
    const first = await sendAs(t, agentId, customer, 'My parcel arrived damaged');
    await repliesSettled(t);
    await sendAs(t, agentId, customer, 'KK-1042');
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, first.conversation_id);
    expect(messages.map((m) => m.message)).toEqual([
      'My parcel arrived damaged',
      'Which order arrived damaged?',
      'KK-1042',
      'A colleague will look at order KK-1042 with you.',
    ]);
    expect(await detail(first.conversation_id)).toMatchObject({
      needs_attention: true,
      is_ai_chat_paused: true,
      handoff: { source: 'flow', reason: 'Damaged parcel' },
    });
  });

  it('hands off when the customer asks for a person, in their words and language', async () => {
    for (const [text, line] of [
      ['Can I talk to a human please?', 'Thanks for your message.'],
      ['Je voudrais parler à un conseiller', 'Thanks for your message.'],
    ]) {
      const sent = await sendAs(t, agentId, `customer-${++user}`, text);
      await repliesSettled(t);
      expect((await allMessages(t, agentId, sent.conversation_id)).at(-1)!.message).toContain(line);
      expect((await detail(sent.conversation_id)).handoff).toMatchObject({
        source: 'customer',
        reason: 'the customer asked for a person',
      });
    }
  });

  it('leaves a rule that matches first to answer, and a mere mention of people alone', async () => {
    const ruled = await sendAs(t, agentId, `customer-${++user}`, 'Speak to the manager');
    const mention = await sendAs(t, agentId, `customer-${++user}`, 'Is a person needed to sign?');
    await repliesSettled(t);
    expect((await detail(ruled.conversation_id)).handoff).toMatchObject({
      source: 'rule',
      reason: 'Manager',
    });
    expect((await detail(mention.conversation_id)).handoff).toMatchObject({ source: 'no_answer' });
  });
});
