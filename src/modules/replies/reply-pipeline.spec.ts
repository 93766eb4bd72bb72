import type { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { ReplyPipeline } from './reply-pipeline';
import { agent, FakeKnowledge, flow, PipelineUnderTest, rule } from './reply-pipeline.fixtures';

describe('ReplyPipeline', () => {
  let knowledge: FakeKnowledge;
  let engine: ReplyPipeline;
  let ask: PipelineUnderTest['ask'];

  beforeEach(() => {
    const pipeline = new PipelineUnderTest();
    ({ knowledge, engine } = pipeline);
    ask = (text, setup) => pipeline.ask(text, setup);
  });

  it('answers with a matching rule before any flow, filling in the agent', async () => {
    const reply = await ask('I want a refund', {
      rules: [rule('refund', 'Refunds take {{agent.business_name}} a week')],
      flows: [flow('refunds', 'refund', ['Which order?', 'Why?'])],
      flowState: { flow: 'refunds', step: 0 },
    });

    expect(reply).toEqual({
      text: 'Refunds take Acme a week',
      needsAttention: false,
      source: 'rule',
    });
    expect(knowledge.questions).toEqual([]);
  });

  it('hands off at a rule that escalates and has no response, before any flow', async () => {
    const reply = await ask('let me talk to a human', {
      rules: [rule('human', null, ' Escalate ')],
      flows: [flow('talk', 'talk', ['What about?'])],
    });

    expect(reply).toEqual({
      text: 'Thanks for your message. Someone from the Acme team will get back to you shortly.',
      needsAttention: true,
      handoff: { reason: 'human', source: 'rule' },
      source: 'handoff',
    });
  });

  it('answers an escalating rule with its response, raising attention', async () => {
    const reply = await ask('I am angry', {
      rules: [rule('angry', 'Sorry! A person will call.', 'escalate')],
    });

    expect(reply).toEqual({
      text: 'Sorry! A person will call.',
      needsAttention: true,
      handoff: { reason: 'angry', source: 'rule' },
      source: 'rule',
    });
  });

  it('passes a rule with neither response nor escalation on to the flows', async () => {
    const reply = await ask('refund please', {
      rules: [rule('refund', '  ', 'tag')],
      flows: [flow('refunds', 'refund', ['Which order?'])],
    });

    expect(reply.source).toBe('flow');
  });

  it('continues the flow in progress before starting one the message matches', async () => {
    const reply = await ask('refund', {
      flows: [
        flow('refunds', 'refund', ['Which order?']),
        flow('onboarding', 'welcome', ['Hello', 'Your name?', 'Your email?']),
      ],
      flowState: { flow: 'onboarding', step: 0 },
    });

    expect(reply).toEqual({
      text: 'Your name?',
      needsAttention: false,
      flowState: { flow: 'onboarding', step: 1 },
      source: 'flow',
    });
  });

  it('clears the flow position with the last step of the flow', async () => {
    const reply = await ask('anything', {
      flows: [flow('onboarding', 'welcome', ['Hello', 'Your name?'])],
      flowState: { flow: 'onboarding', step: 0 },
    });

    expect(reply).toMatchObject({ text: 'Your name?', flowState: null });
  });

  it('passes a finished or unknown flow in progress on to new flows', async () => {
    const flows = [flow('refunds', 'refund', ['Which order?', 'Why?'])];

    const finished = await ask('refund', { flows, flowState: { flow: 'refunds', step: 1 } });
    const unknown = await ask('refund', { flows, flowState: { flow: 'removed', step: 0 } });

    for (const reply of [finished, unknown]) {
      expect(reply).toMatchObject({
        text: 'Which order?',
        flowState: { flow: 'refunds', step: 0 },
      });
    }
  });

  it('starts the flow whose keywords score best, the higher priority on a tie', async () => {
    const ordered = flow('ordered', 'order', ['About your order'], 9);
    const late = flow('late', 'order, late', ['Sorry it is late']);
    const urgent = flow('urgent', 'late, order', ['Right away'], 10);

    expect((await ask('my order is late', { flows: [ordered, late] })).text).toBe(
      'Sorry it is late',
    );
    expect((await ask('my order is late', { flows: [late, urgent] })).text).toBe('Right away');
  });

  it('answers from the knowledge when no rule or flow matches, leaving the flow', async () => {
    knowledge.passages = [{ text: 'We open at nine.', score: 2, source: 'kb' }];

    const reply = await ask('when do you open?', {
      flows: [flow('refunds', 'refund', ['Which order?'])],
    });

    expect(reply).toEqual({
      text: 'We open at nine.',
      needsAttention: false,
      flowState: null,
      source: 'knowledge',
    });
  });

  it('hands off to a person, raising attention, when nothing answers', async () => {
    const reply = await ask('something else entirely');

    expect(knowledge.questions).toEqual(['something else entirely']);
    expect(reply).toEqual({
      text: 'Thanks for your message. Someone from the Acme team will get back to you shortly.',
      needsAttention: true,
      handoff: { reason: 'no answer found', source: 'no_answer' },
      flowState: null,
      source: 'handoff',
    });
  });

  it('goes straight to the knowledge for an agent without a workflow', async () => {
    knowledge.passages = [{ text: 'We open at nine.', score: 2, source: 'kb' }];
    const message = { message: 'refund' } as MessageEntity;

    const reply = await engine.reply({
      agent,
      workflow: null,
      conversation: { flowState: null } as ConversationEntity,
      message,
      history: async () => [message],
    });

    expect(reply.source).toBe('knowledge');
  });
});
