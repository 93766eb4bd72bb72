import { createAgent } from '../factories/agents';
import { allMessages, conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';

const GREETING = 'Hi! This is {{agent.name}} of {{business.name}}.';
const HOURS = 'Our opening hours are 9am to 5pm, Monday to Saturday.';

/** docs/api.md §5b: a rule answers alone only when its trigger covers the message. */
describe('a rule does not swallow the rest of a message', () => {
  let t: TestApp;
  let agentId: string;
  let user = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hi, hello', response: GREETING, enabled: true }],
      flows: [
        {
          name: 'Track',
          trigger_keywords: [{ keyword: 'order', weight: 'high' }],
          conversation_steps: [
            {
              type: 'collect',
              content: 'What is your order number?',
              key: 'order_id',
              validate: 'order_id',
            },
            { type: 'message', content: 'Order {{order_id}} left our warehouse yesterday.' },
          ],
        },
      ],
    });
    agentId = (
      await createAgent(t, { workflow_id: workflow.id, name: 'Ada', business_name: 'Kiki' })
    ).id;
    await createKnowledgeBase(t, agentId, { type: 'text', name: 'Hours', content: HOURS });
  });
  afterAll(() => t.close());

  async function replyTo(text: string): Promise<{ reply: string; conversationId: string }> {
    const sent = await sendAs(t, agentId, `rest-${++user}`, text);
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages).toHaveLength(2);
    return { reply: messages[1].message, conversationId: sent.conversation_id };
  }

  it('answers a bare greeting with the rule alone, placeholders filled', async () => {
    expect((await replyTo('Hello there!')).reply).toBe('Hi! This is Ada of Kiki.');
  });

  it('follows the greeting with the flow the rest starts, the order number taken from it', async () => {
    expect((await replyTo('Hi, where is my order KK-1042?')).reply).toBe(
      'Hi! This is Ada of Kiki.\n\nOrder KK-1042 left our warehouse yesterday.',
    );
  });

  it('follows the greeting with what the knowledge says of the rest', async () => {
    const { reply } = await replyTo('hello, what are your opening hours?');
    expect(reply.startsWith('Hi! This is Ada of Kiki.\n\n')).toBe(true);
    expect(reply).toContain('opening hours are 9am to 5pm');
  });

  it('hands off after the greeting when the rest asks for a person', async () => {
    const { reply, conversationId } = await replyTo('hi, can I talk to a human?');
    expect(reply).toBe(
      'Hi! This is Ada of Kiki.\n\n' +
        'Thanks for your message. Someone from the Kiki team will get back to you shortly.',
    );
    const detail = await t
      .api()
      .get(`${conversationsPath(agentId)}/${conversationId}`)
      .expect(200);
    expect(detail.body.data).toMatchObject({
      needs_attention: true,
      handoff: { source: 'customer' },
    });
  });
});
