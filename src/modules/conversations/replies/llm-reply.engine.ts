import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { KnowledgeSearch } from './knowledge-search';
import { fillPlaceholders, handoffReply, Reply, ReplyContext, ReplyEngine } from './reply-engine';

const KNOWLEDGE_PASSAGES = 3;
const MAX_REPLY_CHARS = 10_000;

interface ChatCompletion {
  choices?: Array<{ message?: { content?: unknown } }>;
}

/**
 * Any OpenAI-compatible chat-completions endpoint (`LLM_BASE_URL`): the workflow's system prompt,
 * the agent's best knowledge passages and the recent history go in. A timeout, an error or an
 * empty answer becomes the hand-off line, so a user always hears back.
 */
@Injectable()
export class LlmReplyEngine implements ReplyEngine {
  private readonly logger = new Logger(LlmReplyEngine.name);
  private readonly url: string;
  private readonly apiKey?: string;
  private readonly model: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly knowledge: KnowledgeSearch,
    config: AppConfig,
  ) {
    this.url = `${config.llm.baseUrl!}/chat/completions`;
    this.apiKey = config.llm.apiKey;
    this.model = config.llm.model;
    this.timeoutMs = config.llm.timeoutMs;
  }

  async reply(context: ReplyContext): Promise<Reply> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.model, messages: await this.messagesFor(context) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) {
        throw new Error(`chat completions answered ${response.status}`);
      }
      const content = ((await response.json()) as ChatCompletion).choices?.[0]?.message?.content;
      if (typeof content !== 'string' || !content.trim()) {
        throw new Error('chat completions gave no content');
      }
      return {
        text: content.trim().slice(0, MAX_REPLY_CHARS),
        needsAttention: false,
        source: 'llm',
      };
    } catch (error) {
      this.logger.warn({ err: error, agent_id: context.agent.id }, 'LLM reply failed; handing off');
      return handoffReply(context.agent);
    }
  }

  private async messagesFor({ agent, workflow, message, history }: ReplyContext) {
    const prompt = workflow?.systemPrompt?.trim()
      ? fillPlaceholders(workflow.systemPrompt, agent)
      : `You are ${agent.name}, the assistant of ${agent.businessName ?? agent.name}. ${agent.description}`;
    const passages = await this.knowledge.topPassages(
      { agent, workflow },
      message.message,
      KNOWLEDGE_PASSAGES,
    );
    const knowledge = passages.length
      ? `\n\nUse this knowledge when it helps:\n${passages.map((p) => `- ${p.text}`).join('\n')}`
      : '';
    return [
      { role: 'system', content: prompt + knowledge },
      ...history.map((entry) => ({ role: entry.role, content: entry.message })),
    ];
  }
}
