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
import { ReplyContext } from '../reply-engine';
import { ModelClient } from './model-client';
import { historyFor, instructionsFor } from './model-prompt';

const KNOWLEDGE_PASSAGES = 3;
const MAX_REPLY_CHARS = 10_000;
const REFUSED = JSON.stringify({
  status: 'refused',
  error: 'Too many tool calls in one reply: this call was not made. Answer with what you have.',
});

export interface ModelAnswer {
  text: string;
  /** A tool waits for a person's approval: the reply goes on once it is decided. */
  parked: boolean;
}

/**
 * The state of one reply the model works on: the runs it made, and those of earlier attempts
 * (read on the first run only: most replies run no action).
 */
export interface RunLog {
  runs: ActionRunEntity[];
  earlier(): Promise<ActionRunEntity[]>;
}

/** Tool names a model accepts: letters, digits, `_` and `-`, at most 64, unique per request. */
function toolNames(targets: ExecutableAction[]): Map<string, ExecutableAction> {
  const named = new Map<string, ExecutableAction>();
  for (const target of targets) {
    const base = target.action.actionName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 58) || 'tool';
    let name = base;
    for (let n = 2; named.has(name); n++) {
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

  get configured(): boolean {
    return this.model.configured;
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
      const offered = round < this.maxToolSteps && callsLeft > 0 ? tools : [];
      const reply = await this.model.complete({
        messages,
        tools: offered,
        promptConfig: workflow?.promptConfig ?? null,
        origin: originOf(context),
      });
      const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function');
      if (calls.length === 0 || offered.length === 0) {
        const text = typeof reply.content === 'string' ? reply.content.trim() : '';
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
