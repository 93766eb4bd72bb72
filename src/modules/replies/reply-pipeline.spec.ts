import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import type {
  WorkflowEntity,
  WorkflowFlow,
  WorkflowRule,
} from '@/modules/workflows/entities/workflow.entity';
import type {
  ConversationEntity,
  FlowState,
} from '@/modules/conversations/entities/conversation.entity';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { FoundPassage, KnowledgeOwner, KnowledgeSearch } from './knowledge-search';
import { ActionRunner } from './action-runs/action-runner.service';
import { ActionRunEntity } from './action-runs/entities/action-run.entity';
import { ModelReplier } from './model/model-replier';
import { Reply } from './reply-engine';
import { ReplyPipeline } from './reply-pipeline';
import { WorkflowTriggersCache } from './rules/workflow-triggers.cache';

const agent = { id: 'agent', teamId: 'team', name: 'Ada', businessName: 'Acme' } as AgentEntity;

const rule = (trigger: string, response: string | null, action: string | null = null) =>
  ({
    id: trigger,
    name: trigger,
    trigger,
    condition: null,
    response,
    action,
    enabled: true,
  }) as WorkflowRule;

/** A flow started by any of its comma-separated keywords, each of medium weight. */
const flow = (name: string, keywords: string, steps: string[], priority = 0): WorkflowFlow => ({
  name,
  priority,
  trigger_keywords: keywords.split(',').map((keyword) => ({ keyword: keyword.trim() })),
  conversation_steps: steps.map((content) => ({ type: 'message', content })),
});

/** Passages the agent's knowledge holds, answered to any question. */
class FakeKnowledge {
  passages: FoundPassage[] = [];
  questions: string[] = [];

  async bestAnswer(_owner: KnowledgeOwner, question: string): Promise<FoundPassage | null> {
    this.questions.push(question);
    return this.passages[0] ?? null;
  }
}

/** The agent's actions by name; running one records its arguments and succeeds with `result`. */
class FakeRunner {
  names: string[] = [];
  calls: Array<{ name: string; args: Record<string, unknown> }> = [];

  async earlierRuns(): Promise<ActionRunEntity[]> {
    return [];
  }

  async actions() {
    return this.names.map((name) => ({
      action: { id: name, actionName: name, name, requireHumanApproval: false },
      integration: {},
    }));
  }

  async run(target: { action: { actionName: string } }, args: Record<string, unknown>) {
    this.calls.push({ name: target.action.actionName, args });
    return {
      id: `run-${this.calls.length}`,
      actionName: target.action.actionName,
      status: 'succeeded',
      result: 'shipped',
    } as ActionRunEntity;
  }
}

describe('ReplyPipeline', () => {
  let knowledge: FakeKnowledge;
  let runner: FakeRunner;
  let engine: ReplyPipeline;
  let workflows = 0;

  beforeEach(() => {
    knowledge = new FakeKnowledge();
    runner = new FakeRunner();
    engine = new ReplyPipeline(
      knowledge as unknown as KnowledgeSearch,
      new WorkflowTriggersCache(),
      runner as unknown as ActionRunner,
      { configured: false } as ModelReplier,
    );
  });

  function ask(
    text: string,
    setup: {
      rules?: WorkflowRule[];
      flows?: WorkflowFlow[];
      flowState?: FlowState;
      context?: Record<string, string>;
    } = {},
  ): Promise<Reply> {
    // A workflow of its own each time: the engine keeps its triggers compiled per workflow.
    const workflow = {
      id: `workflow-${++workflows}`,
      updatedAt: new Date(0),
      rules: setup.rules ?? [],
      flows: setup.flows ?? [],
    } as unknown as WorkflowEntity;
    const conversation = {
      id: 'conversation',
      flowState: setup.flowState ?? null,
      context: setup.context ?? null,
    } as ConversationEntity;
    const message = { id: 'message', message: text, action: null } as MessageEntity;
    return engine.reply({ agent, workflow, conversation, message, history: async () => [message] });
  }

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

  describe('actions', () => {
    it('runs the enabled action a rule names, with the answers collected so far, and says its result', async () => {
      runner.names = ['order_status'];
      const reply = await ask('order status please', {
        rules: [rule('order status', null, 'order_status')],
        context: { order_id: 'A1' },
      });

      expect(runner.calls).toEqual([{ name: 'order_status', args: { order_id: 'A1' } }]);
      expect(reply).toMatchObject({ text: 'Done: shipped', needsAttention: false, source: 'rule' });
      expect(reply.runs).toHaveLength(1);
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
        text: 'Done: shipped',
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
});
