import { ActionRunEntity } from './action-runs/entities/action-run.entity';
import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import type { WorkflowEntity, WorkflowRule } from '@/modules/workflows/entities/workflow.entity';
import type {
  ConversationEntity,
  FlowState,
  HandoffSource,
} from '@/modules/conversations/entities/conversation.entity';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';

export interface ReplyContext {
  agent: AgentEntity;
  workflow: WorkflowEntity | null;
  conversation: ConversationEntity;
  /** The user message being answered (or the `action` message of a decided run). */
  message: MessageEntity;
  /** Earlier messages, oldest first, ending with `message`: read only by the stages that use them. */
  history: () => Promise<MessageEntity[]>;
  /** Hands on each piece of text the model writes, as it writes it (a preview for the streams). */
  onDelta?: (text: string) => void;
}

export interface Reply {
  text: string;
  /** Raise the conversation for a person to look at. */
  needsAttention: boolean;
  /** The flow position to keep; undefined leaves it as it was, null clears it. */
  flowState?: FlowState | null;
  /** The customer's answers collected so far; undefined leaves them as they were. */
  context?: Record<string, string>;
  /** The actions run for this reply, in order: each shows as an `action` message before the text. */
  runs?: ActionRunEntity[];
  /** Set when the reply hands the conversation to a person: why, and which stage did. */
  handoff?: Handoff;
  /** Which stage answered, for logs. */
  source: 'rule' | 'flow' | 'knowledge' | 'llm' | 'handoff' | 'action';
}

/** Produces the agent's answer to one user message. */
export interface ReplyEngine {
  /** Also the rest of a reply that waited for a decision, when `message` is that run's message. */
  reply(context: ReplyContext): Promise<Reply>;
}

export const REPLY_ENGINE = Symbol('REPLY_ENGINE');

export interface Handoff {
  reason: string;
  source: HandoffSource;
}

/** Nothing relevant was found to answer with. */
export const NO_ANSWER_HANDOFF: Handoff = { reason: 'no answer found', source: 'no_answer' };

/** A rule whose action is `escalate`: the reason is the rule's name. */
export function ruleHandoff(rule: Pick<WorkflowRule, 'name' | 'trigger'>): Handoff {
  return { reason: rule.name?.trim() || rule.trigger?.trim() || 'rule', source: 'rule' };
}

/** The agent's own placeholders, by name: each a field of the agent (none: the empty text). */
const AGENT_PLACEHOLDERS: Record<string, (agent: AgentEntity) => string> = {
  'agent.name': (agent) => agent.name,
  'agent.business_name': (agent) => agent.businessName ?? agent.name,
  'business.name': (agent) => agent.businessName ?? agent.name,
  'business.address': (agent) => agent.businessAddress ?? '',
  'business.email': (agent) => agent.businessEmail ?? '',
  'business.description': (agent) => agent.businessDescription ?? '',
};

/**
 * Fills `{{agent.name}}`, `{{agent.business_name}}`, `{{business.name}}`, `{{business.address}}`,
 * `{{business.email}}`, `{{business.description}}` and `{{key}}` for each collected answer; any
 * other placeholder is left as written.
 */
export function fillPlaceholders(
  text: string,
  agent: AgentEntity,
  collected: Record<string, string> = {},
): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, (whole, name: string) => {
    if (Object.hasOwn(AGENT_PLACEHOLDERS, name)) {
      return AGENT_PLACEHOLDERS[name](agent);
    }
    return Object.hasOwn(collected, name) ? collected[name] : whole;
  });
}
