import { Injectable } from '@nestjs/common';
import type OpenAI from 'openai';
import type { ClientOptions } from 'openai';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { ModelSettingsService, OwnProvider } from '@/modules/model-settings/model-settings.service';

/** Who answers a team's replies: a client, its default model, and the team's limits. */
export interface ModelProvider {
  client: OpenAI;
  /** The model used when the workflow names none, or one outside `allowedModels`. */
  model: string;
  allowedModels: string[] | null;
  monthlyTokenBudget: number | null;
}

const MAX_CACHED_CLIENTS = 1000;

/** Loaded with the first provider asked for: a start that answers no model need not pay for it. */
async function openAiClient(options: ClientOptions): Promise<OpenAI> {
  const { OpenAI: Client } = await import('openai');
  return new Client(options);
}

/**
 * The provider of each team: its own (docs/api.md §5b) or the environment's (LLM_*). The team's
 * settings are read for every reply, so a PUT or DELETE on any instance holds for the next reply
 * on every other; only the clients are kept, each under its base URL and sealed key (sealed anew
 * at every PUT), so a changed provider is never served by the client of the one before.
 */
@Injectable()
export class ModelProviders {
  private environment: Promise<OpenAI> | null = null;
  private readonly environmentOptions: ClientOptions | null;
  private readonly environmentModel: string;
  private readonly timeoutMs: number;
  private readonly clients = new Map<string, OpenAI>();

  constructor(
    config: AppConfig,
    private readonly outbound: OutboundHttp,
    private readonly settings: ModelSettingsService,
  ) {
    this.environmentModel = config.llm.model;
    this.timeoutMs = config.llm.timeoutMs;
    // The operator's model: see OutboundHttp.operatorFetch for why the address guard skips it.
    this.environmentOptions = config.llm.baseUrl
      ? {
          baseURL: config.llm.baseUrl,
          // Local servers (Ollama, vLLM) take no key, but the client insists on one.
          apiKey: config.llm.apiKey ?? 'none',
          timeout: config.llm.timeoutMs,
          maxRetries: 0,
          fetch: outbound.operatorFetch(config.llm.timeoutMs) as ClientOptions['fetch'],
        }
      : null;
  }

  /** The team's provider, or null when it has none of its own and the environment has none. */
  async forTeam(teamId: string): Promise<ModelProvider | null> {
    const rules = await this.settings.rulesOf(teamId);
    const limits = {
      allowedModels: rules.allowedModels,
      monthlyTokenBudget: rules.monthlyTokenBudget,
    };
    if (rules.own) {
      return { client: await this.clientOf(rules.own), model: rules.own.model, ...limits };
    }
    if (!this.environmentOptions) {
      return null;
    }
    this.environment ??= openAiClient(this.environmentOptions);
    return { client: await this.environment, model: this.environmentModel, ...limits };
  }

  /**
   * A client for a team's own provider. Its base URL is the customer's, not the operator's: its
   * requests go through the guarded fetch (public addresses only), with the model's deadline.
   */
  private async clientOf(own: OwnProvider): Promise<OpenAI> {
    const key = `${own.baseUrl}\n${own.sealedKey}`;
    const known = this.clients.get(key);
    if (known) {
      return known;
    }
    const guarded = (url: string | URL, init?: RequestInit) =>
      this.outbound.fetchFor(AbortSignal.timeout(this.timeoutMs))(url, init);
    const client = await openAiClient({
      baseURL: own.baseUrl,
      apiKey: this.settings.openKey(own),
      timeout: this.timeoutMs,
      maxRetries: 0,
      fetch: guarded as ClientOptions['fetch'],
    });
    if (this.clients.size >= MAX_CACHED_CLIENTS) {
      this.clients.delete(this.clients.keys().next().value!);
    }
    this.clients.set(key, client);
    return client;
  }
}
