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

/* What the ReplyPipeline specs share: an agent, workflows made on the spot, fake knowledge and actions. */

export const agent = {
  id: 'agent',
  teamId: 'team',
  name: 'Ada',
  businessName: 'Acme',
} as AgentEntity;

export const rule = (trigger: string, response: string | null, action: string | null = null) =>
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
export const flow = (
  name: string,
  keywords: string,
  steps: string[],
  priority = 0,
): WorkflowFlow => ({
  name,
  priority,
  trigger_keywords: keywords.split(',').map((keyword) => ({ keyword: keyword.trim() })),
  conversation_steps: steps.map((content) => ({ type: 'message', content })),
});

/** Passages the agent's knowledge holds, answered to any question. */
export class FakeKnowledge {
  passages: FoundPassage[] = [];
  questions: string[] = [];

  async bestAnswer(_owner: KnowledgeOwner, question: string): Promise<FoundPassage | null> {
    this.questions.push(question);
    return this.passages[0] ?? null;
  }
}

/**
 * The agent's actions by name; running one records its arguments and succeeds with a result and
 * `customerText` (null: the action has no text of its own).
 */
export class FakeRunner {
  names: string[] = [];
  customerText: string | null = 'Your order is shipped.';
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
      customerText: this.customerText,
    } as ActionRunEntity;
  }
}

export interface AskSetup {
  rules?: WorkflowRule[];
  flows?: WorkflowFlow[];
  flowState?: FlowState;
  context?: Record<string, string>;
}

let workflows = 0;

/** A pipeline with fake knowledge and actions, asked as the reply worker asks it. */
export class PipelineUnderTest {
  readonly knowledge = new FakeKnowledge();
  readonly runner = new FakeRunner();
  readonly engine = new ReplyPipeline(
    this.knowledge as unknown as KnowledgeSearch,
    new WorkflowTriggersCache(),
    this.runner as unknown as ActionRunner,
    { availableFor: () => Promise.resolve(false) } as Partial<ModelReplier> as ModelReplier,
  );

  ask(text: string, setup: AskSetup = {}): Promise<Reply> {
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
    return this.engine.reply({
      agent,
      workflow,
      conversation,
      message,
      history: async () => [message],
    });
  }
}
