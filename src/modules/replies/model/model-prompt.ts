import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import type { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { FoundPassage } from '../knowledge-search';
import { fillPlaceholders } from '../reply-engine';

/** The conversation a model reads is bounded: the newest messages that fit, each cut short. */
const HISTORY_CHARS = 12_000;
const MESSAGE_CHARS = 2_000;

const PERSONAS: Record<string, string> = {
  professional: 'Be professional and courteous.',
  friendly: 'Be warm and friendly.',
  concise: 'Be brief: answer in as few words as the question allows.',
};

function localTime(now: Date, timezone: string | null): string {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      dateStyle: 'full',
      timeStyle: 'short',
    }).format(now);
  try {
    return `${format(timezone ?? 'UTC')} (${timezone ?? 'UTC'})`;
  } catch {
    return `${format('UTC')} (UTC)`;
  }
}

function businessLines(agent: AgentEntity): string[] {
  const details: Array<[string, string | null]> = [
    ['Business', agent.businessName],
    ['Address', agent.businessAddress],
    ['Email', agent.businessEmail],
    ['About', agent.businessDescription],
  ];
  return details.filter(([, value]) => value?.trim()).map(([label, value]) => `${label}: ${value}`);
}

function ruleLines(
  agent: AgentEntity,
  workflow: WorkflowEntity | null,
  collected: Record<string, string>,
): string[] {
  return (workflow?.rules ?? [])
    .filter((rule) => rule.enabled && rule.trigger?.trim())
    .map((rule) => {
      const action = rule.action?.trim();
      const does =
        action?.toLowerCase() === 'escalate'
          ? ' and hand the conversation to a person'
          : action
            ? ` and use the tool for "${action}"`
            : '';
      const response = rule.response?.trim()
        ? fillPlaceholders(rule.response.trim(), agent, collected)
        : '';
      const answer = response ? `answer: ${response}` : 'respond';
      return `- When the customer mentions ${rule.trigger!.trim()}, ${answer}${does}`;
    });
}

/** The model's instructions: the workflow's prompt, who the agent is, its rules and knowledge. */
export function instructionsFor(
  agent: AgentEntity,
  workflow: WorkflowEntity | null,
  passages: FoundPassage[],
  collected: Record<string, string>,
  now = new Date(),
): string {
  const prompt = workflow?.systemPrompt?.trim()
    ? fillPlaceholders(workflow.systemPrompt, agent, collected)
    : `You are ${agent.name}, the assistant of ${agent.businessName ?? agent.name}. ${agent.description}`;
  const sections = [prompt];
  const style = [
    agent.persona ? PERSONAS[agent.persona] : undefined,
    agent.language ? `Answer in this language: ${agent.language}.` : undefined,
  ].filter(Boolean);
  if (style.length) {
    sections.push(style.join(' '));
  }
  const business = businessLines(agent);
  if (business.length) {
    sections.push(`About the business:\n${business.join('\n')}`);
  }
  sections.push(`The local time is ${localTime(now, agent.timezone)}.`);
  const rules = ruleLines(agent, workflow, collected);
  if (rules.length) {
    sections.push(`Follow these rules:\n${rules.join('\n')}`);
  }
  const known = Object.entries(collected);
  if (known.length) {
    sections.push(
      `The customer has told you:\n${known.map(([key, value]) => `- ${key}: ${value}`).join('\n')}`,
    );
  }
  if (passages.length) {
    sections.push(
      `Use this knowledge when it helps:\n${passages.map((p) => `- ${p.text}`).join('\n')}`,
    );
  }
  sections.push(
    'Use a tool when the customer asks for something it does, and answer from its result; ' +
      'never invent a result. When you cannot help, say so honestly.',
  );
  return sections.join('\n\n');
}

/**
 * The conversation so far as chat messages, newest last, within the bound. Private notes are
 * staff's, never the model's.
 */
export function historyFor(history: MessageEntity[]): ChatCompletionMessageParam[] {
  const kept: ChatCompletionMessageParam[] = [];
  let chars = 0;
  for (const entry of history.filter((each) => each.messageType !== 'note').reverse()) {
    const text = entry.message.slice(0, MESSAGE_CHARS);
    chars += text.length;
    if (chars > HISTORY_CHARS && kept.length > 0) {
      break;
    }
    kept.push(
      entry.role === 'user'
        ? { role: 'user', content: text }
        : { role: 'assistant', content: entry.messageType === 'action' ? `[${text}]` : text },
    );
  }
  return kept.reverse();
}
