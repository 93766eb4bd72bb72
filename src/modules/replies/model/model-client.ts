import { Injectable } from '@nestjs/common';
import OpenAI, { type ClientOptions } from 'openai';
import type {
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import type { JsonObject } from '@/modules/workflows/entities/workflow.entity';

export interface ModelRequest {
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionTool[];
  /** The workflow's `prompt_config`: `model`, `temperature`, `max_tokens` are taken from it. */
  promptConfig: JsonObject | null;
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

  constructor(config: AppConfig, outbound: OutboundHttp) {
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

  /** One chat completion: the model's message (text, tool calls, or both). */
  async complete({ messages, tools, promptConfig }: ModelRequest): Promise<ChatCompletionMessage> {
    const config = promptConfig ?? {};
    const model =
      typeof config.model === 'string' && config.model.trim() ? config.model.trim() : this.model;
    const temperature = numberIn(config.temperature, 0, 2);
    const maxTokens = numberIn(config.max_tokens, 1, 1_000_000);
    const completion = await this.client!.chat.completions.create({
      model,
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { max_tokens: Math.floor(maxTokens) } : {}),
    });
    const message = completion.choices?.[0]?.message;
    if (!message) {
      throw new Error('the model answered without a message');
    }
    return message;
  }
}
