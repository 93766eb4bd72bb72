import { Injectable } from '@nestjs/common';
import OpenAI, { type ClientOptions } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { ModelCallOrigin, UsageService } from '@/modules/usage/usage.service';
import type { JsonObject } from '@/modules/workflows/entities/workflow.entity';
import type { CompletionUsage } from 'openai/resources/completions';
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
 * client. Its requests go through the outbound module (never in a transaction, deadline, capped
 * answer); see OutboundHttp.operatorFetch for why the address guard does not apply to it.
 */
@Injectable()
export class ModelClient {
  private readonly client: OpenAI | null;
  private readonly model: string;

  constructor(
    config: AppConfig,
    outbound: OutboundHttp,
    private readonly usage: UsageService,
  ) {
    this.model = config.llm.model;
    this.client = config.llm.baseUrl
      ? new OpenAI({
          baseURL: config.llm.baseUrl,
          // Local servers (Ollama, vLLM) take no key, but the client insists on one.
          apiKey: config.llm.apiKey ?? 'none',
          timeout: config.llm.timeoutMs,
          maxRetries: 0,
          fetch: outbound.operatorFetch(config.llm.timeoutMs) as ClientOptions['fetch'],
        })
      : null;
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /**
   * One chat completion: the model's message (text, tool calls, or both). Each call, ok or
   * failed, is recorded once it has returned, never while it runs.
   */
  async complete(request: ModelRequest): Promise<ChatCompletionMessage> {
    const model = this.modelFor(request.promptConfig);
    const started = performance.now();
    let completion: StreamedCompletion;
    try {
      completion = await readCompletionStream(await this.create(model, request), request.onDelta);
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

  private modelFor(promptConfig: JsonObject | null): string {
    const configured = promptConfig?.model;
    return typeof configured === 'string' && configured.trim() ? configured.trim() : this.model;
  }

  /**
   * The completion, streamed: the text reaches the customer as it is written, and usage still
   * comes (`include_usage`: in a last chunk of its own).
   */
  private create(
    model: string,
    { messages, tools, promptConfig }: ModelRequest,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const config = promptConfig ?? {};
    const temperature = numberIn(config.temperature, 0, 2);
    const maxTokens = numberIn(config.max_tokens, 1, 1_000_000);
    return this.client!.chat.completions.create({
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
