import { createAgent } from '../factories/agents';
import { allMessages, repliesSettled, sendAs } from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';

const ASK = 'What is your order number?';
const HOURS = 'Our opening hours are 9am to 5pm, Monday to Saturday.';

const trackFlow = (validate: unknown) => ({
  name: 'Track',
  trigger_keywords: [{ keyword: 'track', weight: 'high' }],
  conversation_steps: [
    { type: 'collect', content: ASK, key: 'order_id', validate },
    { type: 'message', content: 'Thanks, looking up {{order_id}}.' },
  ],
});

/** docs/api.md §5b: a collect step's validate, the question instead of an answer, known values. */
describe('flow collect steps that check the answer', () => {
  let t: TestApp;
  let agentId: string;
  let user = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const workflow = await createWorkflow(t, { name: 'Orders', flows: [trackFlow('order_id')] });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createKnowledgeBase(t, agentId, { type: 'text', name: 'Hours', content: HOURS });
  });
  afterAll(() => t.close());

  async function exchange(...texts: string[]): Promise<string[]> {
    const customer = `collect-${++user}`;
    let conversationId = '';
    for (const text of texts) {
      conversationId = (await sendAs(t, agentId, customer, text)).conversation_id;
      await repliesSettled(t);
    }
    return (await allMessages(t, agentId, conversationId)).map((m) => m.message);
  }

  it('answers a question asked instead of the order number, then asks again', async () => {
    const messages = await exchange(
      'I want to track my parcel',
      'what are your opening hours?',
      'It is KK-1042',
    );
    expect(messages).toHaveLength(6);
    expect(messages[1]).toBe(ASK);
    expect(messages[3]).toContain('opening hours are 9am to 5pm');
    expect(messages[3].endsWith(`\n\n${ASK}`)).toBe(true);
    expect(messages[5]).toBe('Thanks, looking up KK-1042.');
  });

  it('asks again, and only that, when the answer holds no order number', async () => {
    const messages = await exchange('track please', 'no idea sorry', '#2210');
    expect(messages).toEqual([
      'track please',
      ASK,
      'no idea sorry',
      ASK,
      '#2210',
      'Thanks, looking up 2210.',
    ]);
  });

  it('skips the step when the message that starts the flow holds the answer', async () => {
    const messages = await exchange('Hi, can you track my order KK-1042?');
    expect(messages.at(-1)).toBe('Thanks, looking up KK-1042.');
  });

  it('skips the step when the conversation already holds the answer', async () => {
    const messages = await exchange('track my order', 'KK-7', 'track it again please');
    expect(messages.slice(-1)).toEqual(['Thanks, looking up KK-7.']);
    expect(messages.filter((m) => m === ASK)).toHaveLength(1);
  });
});

describe('a collect step validate, as written', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['zip'],
    [{ pattern: '(a+)+$' }],
    [{ pattern: '[' }],
    [{ pattern: '' }],
    [{ pattern: 'KK-\\d+', flags: 'g' }],
    [42],
  ])('refuses %p with a 400 naming the step', async (validate) => {
    const res = await t
      .api()
      .post(`${API}/workflows`)
      .send({ name: 'Bad', flows: [trackFlow(validate)] })
      .expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body)).toContain('validate');
  });

  it('keeps a pattern and a kind as sent', async () => {
    const created = await createWorkflow(t, {
      name: 'Good',
      flows: [trackFlow({ pattern: 'KK-\\d{4}' }), { ...trackFlow('email'), name: 'Mail' }],
    });
    const read = await t.api().get(`${API}/workflows/${created.id}`).expect(200);
    expect(read.body.data.flows.map((f: any) => f.conversation_steps[0].validate)).toEqual([
      { pattern: 'KK-\\d{4}' },
      'email',
    ]);
  });
});
