import { Injectable } from '@nestjs/common';
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { AppConfig } from '@/config/app-config';
import { ActionRunner } from '../action-runs/action-runner.service';
import { ActionRunEntity } from '../action-runs/entities/action-run.entity';
import { ExecutableAction } from '@/modules/integrations/integrations.public';
import { customerLineFor, toolResultFor } from '../action-runs/action-lines';
import { KnowledgeSearch } from '../knowledge-search';
import { Handoff, ReplyContext } from '../reply-engine';
import { ModelClient } from './model-client';
import { historyFor, instructionsFor } from './model-prompt';

const KNOWLEDGE_PASSAGES = 3;
const MAX_REPLY_CHARS = 10_000;
const REFUSED = JSON.stringify({
  status: 'refused',
  error: 'Too many tool calls in one reply: this call was not made. Answer with what you have.',
});

export interface ModelAnswer {
  /** Empty only when the model handed off without a word: the hand-off line stands in. */
  text: string;
  /** A tool waits for a person's approval: the reply goes on once it is decided. */
  parked: boolean;
  /** The model handed the conversation to a person (`handoff_to_human`). */
  handoff?: Handoff;
}

/** The tool every model has, besides the agent's actions (docs/api.md §5b). */
export const HANDOFF_TOOL_NAME = 'handoff_to_human';
const HANDOFF_REASON_CHARS = 500;
const HANDOFF_TOOL: ChatCompletionTool = {
  type: 'function',
  function: {
    name: HANDOFF_TOOL_NAME,
    description:
      'Hand the conversation to a person on the team: when the customer asks for a person, ' +
      'when you cannot help with what they need, or when it needs a human decision. ' +
      'Say why in `reason`; you may also write a short message telling the customer.',
    parameters: {
      type: 'object',
      properties: {
        reason: { type: 'string', description: 'Why a person should take over, in a sentence.' },
      },
      required: ['reason'],
      additionalProperties: false,
    },
  },
};

/** The hand-off a `handoff_to_human` call asks for: its reason, tidied and bounded. */
function modelHandoff(rawArguments: string): Handoff {
  const reason = parsedArguments(rawArguments)?.reason;
  const text = typeof reason === 'string' ? reason.replace(/\s+/g, ' ').trim() : '';
  return {
    source: 'model',
    reason: text.slice(0, HANDOFF_REASON_CHARS) || 'the model asked for a person',
  };
}

/**
 * The state of one reply the model works on: the runs it made, and those of earlier attempts
 * (read on the first run only: most replies run no action).
 */
export interface RunLog {
  runs: ActionRunEntity[];
  earlier(): Promise<ActionRunEntity[]>;
}

/**
 * Tool names a model accepts: letters, digits, `_` and `-`, at most 64, unique per request (an
 * action named like the hand-off tool gets a suffix).
 */
function toolNames(targets: ExecutableAction[]): Map<string, ExecutableAction> {
  const named = new Map<string, ExecutableAction>();
  for (const target of targets) {
    const base = target.action.actionName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 58) || 'tool';
    let name = base;
    for (let n = 2; named.has(name) || name === HANDOFF_TOOL_NAME; n++) {
      name = `${base}_${n}`;
    }
    named.set(name, target);
  }
  return named;
}

function parsedArguments(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Answers with the language model: its instructions, the conversation so far, and the agent's
 * enabled actions as tools, for at most LLM_MAX_TOOL_STEPS rounds and LLM_MAX_TOOL_CALLS calls
 * in all (one answer may ask for hundreds: the calls beyond are refused, never run). Throws when
 * the model fails; the caller falls back to answering without it.
 */
@Injectable()
export class ModelReplier {
  private readonly maxToolSteps: number;
  private readonly maxToolCalls: number;

  constructor(
    private readonly model: ModelClient,
    private readonly runner: ActionRunner,
    private readonly knowledge: KnowledgeSearch,
    config: AppConfig,
  ) {
    this.maxToolSteps = config.llm.maxToolSteps;
    this.maxToolCalls = config.llm.maxToolCalls;
  }

  /** Whether this reply may use the model: one for the team, its budget not reached. */
  availableFor(context: ReplyContext): Promise<boolean> {
    return this.model.availableFor(originOf(context));
  }

  async answer(
    context: ReplyContext,
    targets: ExecutableAction[],
    log: RunLog,
    note?: string,
  ): Promise<ModelAnswer> {
    const { agent, workflow, message, history, conversation } = context;
    const passages = await this.knowledge.topPassages(
      { agent, workflow },
      message.message,
      KNOWLEDGE_PASSAGES,
    );
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'system',
        content: instructionsFor(agent, workflow, passages, conversation.context ?? {}),
      },
      ...historyFor(await history()),
      ...(note ? [{ role: 'system' as const, content: note }] : []),
    ];
    const named = toolNames(targets);
    const tools: ChatCompletionTool[] = [...named].map(([name, target]) => ({
      type: 'function',
      function: {
        name,
        description: (target.action.description ?? target.action.name).slice(0, 1024),
        parameters: { ...this.runner.parametersOf(target) },
      },
    }));
    let callsLeft = this.maxToolCalls;
    for (let round = 0; ; round++) {
      const actionsOffered = round < this.maxToolSteps && callsLeft > 0;
      const reply = await this.model.complete({
        messages,
        tools: actionsOffered ? [...tools, HANDOFF_TOOL] : [HANDOFF_TOOL],
        promptConfig: workflow?.promptConfig ?? null,
        origin: originOf(context),
        onDelta: context.onDelta,
      });
      const text = typeof reply.content === 'string' ? reply.content.trim() : '';
      const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function');
      const handoff = calls.find((call) => call.function.name === HANDOFF_TOOL_NAME);
      if (handoff) {
        // A person takes over: the other calls of this answer are not made.
        return {
          text: text.slice(0, MAX_REPLY_CHARS),
          parked: false,
          handoff: modelHandoff(handoff.function.arguments),
        };
      }
      if (calls.length === 0 || !actionsOffered) {
        if (!text) {
          throw new Error('the model gave no answer');
        }
        return { text: text.slice(0, MAX_REPLY_CHARS), parked: false };
      }
      messages.push({ role: 'assistant', content: reply.content ?? null, tool_calls: calls });
      let parked: ActionRunEntity | null = null;
      for (const call of calls) {
        const target = named.get(call.function.name);
        const args = parsedArguments(call.function.arguments);
        let content: string;
        if (callsLeft <= 0) {
          content = REFUSED;
        } else if (!target) {
          content = JSON.stringify({ status: 'failed', error: 'No such tool' });
        } else if (!args) {
          content = JSON.stringify({ status: 'failed', error: 'Arguments must be a JSON object' });
        } else {
          const run = await this.runner.run(target, args, originOf(context), await log.earlier());
          recordRun(log, run);
          parked = run.status === 'pending_approval' ? run : parked;
          content = toolResultFor(run);
        }
        callsLeft -= 1;
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
      if (parked) {
        return { text: customerLineFor(parked), parked: true };
      }
    }
  }
}

/** Adds `run` to the reply's runs once: the same call made twice is one run, one message. */
export function recordRun(log: RunLog, run: ActionRunEntity): void {
  if (!log.runs.some((known) => known.id === run.id)) {
    log.runs.push(run);
  }
}

export function originOf({ agent, conversation, message }: ReplyContext) {
  return {
    teamId: agent.teamId,
    agentId: agent.id,
    conversationId: conversation.id,
    messageId: message.id,
  };
}
