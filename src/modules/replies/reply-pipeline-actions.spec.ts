import type { WorkflowFlow } from '@/modules/workflows/entities/workflow.entity';
import { FakeRunner, flow, PipelineUnderTest, rule } from './reply-pipeline.fixtures';

describe('ReplyPipeline: actions', () => {
  let runner: FakeRunner;
  let ask: PipelineUnderTest['ask'];

  beforeEach(() => {
    const pipeline = new PipelineUnderTest();
    runner = pipeline.runner;
    ask = (text, setup) => pipeline.ask(text, setup);
  });

  it('runs the enabled action a rule names, with the answers collected so far, and says its text', async () => {
    runner.names = ['order_status'];
    const reply = await ask('order status please', {
      rules: [rule('order status', null, 'order_status')],
      context: { order_id: 'A1' },
    });

    expect(runner.calls).toEqual([{ name: 'order_status', args: { order_id: 'A1' } }]);
    expect(reply).toMatchObject({
      text: 'Your order is shipped.',
      needsAttention: false,
      source: 'rule',
    });
    expect(reply.runs).toHaveLength(1);
  });

  it('answers a rule with both a response and an action with its response, then the action text', async () => {
    runner.names = ['order_status'];
    const reply = await ask('order status please', {
      rules: [rule('order status', 'Let me check.', 'order_status')],
    });

    expect(reply.text).toBe('Let me check.\n\nYour order is shipped.');
  });

  it('names the action in a sentence of its own when it has no text, never its raw result', async () => {
    runner.names = ['order_status'];
    runner.customerText = null;
    const reply = await ask('order status please', {
      rules: [rule('order status', null, 'order_status')],
    });

    expect(reply.text).toBe('Done: Order status.');
  });

  it('answers a rule whose action the agent cannot run with its response, running nothing', async () => {
    const reply = await ask('order status please', {
      rules: [rule('order status', 'Let me check.', 'order_status')],
    });

    expect(runner.calls).toEqual([]);
    expect(reply).toMatchObject({ text: 'Let me check.', source: 'rule' });
    expect(reply.runs).toBeUndefined();
  });

  it("keeps a collect step's answer under its key, then runs the next step's action with it", async () => {
    runner.names = ['order_status'];
    const tracking: WorkflowFlow = {
      name: 'Track',
      trigger_keywords: [{ keyword: 'track' }],
      conversation_steps: [
        { type: 'collect', content: 'Your order number?', key: 'order_id' },
        { type: 'action', action: 'order_status' },
        { type: 'message', content: 'Anything else about {{order_id}}?' },
      ],
    };

    const asked = await ask('track my parcel', { flows: [tracking] });
    expect(asked).toMatchObject({
      text: 'Your order number?',
      flowState: { flow: 'Track', step: 0 },
    });
    const ran = await ask('B7', { flows: [tracking], flowState: { flow: 'Track', step: 0 } });
    expect(runner.calls).toEqual([{ name: 'order_status', args: { order_id: 'B7' } }]);
    expect(ran).toMatchObject({
      text: 'Your order is shipped.',
      flowState: { flow: 'Track', step: 1 },
      context: { order_id: 'B7' },
    });
    const last = await ask('no', {
      flows: [tracking],
      flowState: { flow: 'Track', step: 1 },
      context: { order_id: 'B7' },
    });
    expect(last).toMatchObject({ text: 'Anything else about B7?', flowState: null });
  });

  it('skips a flow step whose action the agent cannot run', async () => {
    const reply = await ask('next', {
      flows: [flow('Refund', 'refund', ['Order number?'])].map((f) => ({
        ...f,
        conversation_steps: [
          ...f.conversation_steps,
          { type: 'action', action: 'missing' },
          { type: 'message', content: 'Refund on its way.' },
        ],
      })),
      flowState: { flow: 'Refund', step: 0 },
    });

    expect(reply).toMatchObject({ text: 'Refund on its way.', flowState: null });
  });
});
