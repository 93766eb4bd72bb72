import { Injectable } from '@nestjs/common';
import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { ModelBudget } from '@/modules/usage/model-budget.service';
import { ModelCallOrigin, UsageService } from '@/modules/usage/usage.service';
import type { JsonObject } from '@/modules/workflows/entities/workflow.entity';
import type { CompletionUsage } from 'openai/resources/completions';
import { ModelProvider, ModelProviders } from './model-providers';
import { readCompletionStream, StreamedCompletion } from './model-stream';

export interface ModelRequest {
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionTool[];
  /** The workflow's `prompt_config`: `model`, `temperature`, `max_tokens` are taken from it. */
  promptConfig: JsonObject | null;
  /** Whose call it is: its usage is recorded against them. */
  origin: ModelCallOrigin;
  /** Each piece of text, as the model writes it. */
  onDelta?: (text: string) => void;
}

function numberIn(value: unknown, min: number, max: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
    ? value
    : undefined;
}

/**
 * The language model: any OpenAI-compatible chat-completions endpoint, through the `openai`
 * client: the team's own provider, else the environment's (ModelProviders). Its requests go
 * through the outbound module (never in a transaction, deadline, capped answer).
 */
@Injectable()
export class ModelClient {
  constructor(
    private readonly usage: UsageService,
    private readonly providers: ModelProviders,
    private readonly budget: ModelBudget,
  ) {}

  /**
   * Whether the reply of `origin` may use a model: the team has one (its own or the
   * environment's) and has not reached its monthly token budget (docs/api.md §5b). A reply
   * begun under the budget finishes its rounds of tool calls with the model.
   */
  async availableFor(origin: ModelCallOrigin): Promise<boolean> {
    const provider = await this.providers.forTeam(origin.teamId);
    return provider !== null && (await this.budget.allows(origin, provider.monthlyTokenBudget));
  }

  /**
   * One chat completion: the model's message (text, tool calls, or both). Each call, ok or
   * failed, is recorded once it has returned, never while it runs.
   */
  async complete(request: ModelRequest): Promise<ChatCompletionMessage> {
    const provider = await this.providers.forTeam(request.origin.teamId);
    if (!provider) {
      throw new Error('no model is configured for this team');
    }
    const model = this.modelFor(request.promptConfig, provider);
    const started = performance.now();
    let completion: StreamedCompletion;
    try {
      completion = await readCompletionStream(
        await this.create(provider.client, model, request),
        request.onDelta,
      );
    } catch (error) {
      await this.record(request.origin, model, started, undefined, false);
      throw error;
    }
    const { message, usage } = completion;
    await this.record(request.origin, model, started, usage, Boolean(message));
    if (!message) {
      throw new Error('the model answered without a message');
    }
    return message;
  }

  /**
   * The workflow's model, unless the team allows others only (a public workflow of another team,
   * or a list set after the workflow was written): then, like without one, the provider's.
   */
  private modelFor(promptConfig: JsonObject | null, provider: ModelProvider): string {
    const configured = promptConfig?.model;
    const named = typeof configured === 'string' ? configured.trim() : '';
    const allowed = !provider.allowedModels || provider.allowedModels.includes(named);
    return named && allowed ? named : provider.model;
  }

  /**
   * The completion, streamed: the text reaches the customer as it is written, and usage still
   * comes (`include_usage`: in a last chunk of its own).
   */
  private create(
    client: OpenAI,
    model: string,
    { messages, tools, promptConfig }: ModelRequest,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const config = promptConfig ?? {};
    const temperature = numberIn(config.temperature, 0, 2);
    const maxTokens = numberIn(config.max_tokens, 1, 1_000_000);
    return client.chat.completions.create({
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(tools.length > 0 ? { tools } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { max_tokens: Math.floor(maxTokens) } : {}),
    });
  }

  private record(
    origin: ModelCallOrigin,
    model: string,
    started: number,
    usage: CompletionUsage | undefined,
    ok: boolean,
  ): Promise<void> {
    return this.usage.record({
      origin,
      model,
      promptTokens: tokens(usage?.prompt_tokens),
      completionTokens: tokens(usage?.completion_tokens),
      latencyMs: Math.round(performance.now() - started),
      ok,
    });
  }
}

/** A token count the provider reported; anything else (absent, negative, fractional) is 0. */
function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
