import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { SecretBox } from '@/config/secret-box';
import { ModelSettingsPutDto, ModelSettingsResponseDto } from './dto/model-settings.dto';
import { TeamModelSettingsEntity } from './entities/team-model-settings.entity';
import { ModelSettingsRepository } from './model-settings.repository';
import { checkProviderKey } from './provider-key-check';

/** A provider of the team's own, its key still sealed (opened only to build a client). */
export interface OwnProvider {
  baseUrl: string;
  sealedKey: string;
  model: string;
}

/** What the replies need of a team's settings, read fresh for each reply. */
export interface TeamModelRules {
  /** null: the environment's provider (LLM_*). */
  own: OwnProvider | null;
  allowedModels: string[] | null;
  monthlyTokenBudget: number | null;
}

const PROVIDER_FIELDS = ['base_url', 'api_key', 'model'] as const;

/**
 * A team's own model settings (docs/api.md §5b): its provider, checked with the provider before
 * it is stored, the models its workflows may name, and its monthly token budget.
 */
@Injectable()
export class ModelSettingsService {
  private readonly environmentModel: string | null;
  private readonly checkTimeoutMs: number;

  constructor(
    private readonly settings: ModelSettingsRepository,
    private readonly secretBox: SecretBox,
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.environmentModel = config.llm.baseUrl ? config.llm.model : null;
    this.checkTimeoutMs = config.outbound.timeoutMs;
  }

  async get(teamId: string): Promise<ModelSettingsResponseDto> {
    return this.toResponse(await this.settings.find(teamId));
  }

  /**
   * Replaces the team's settings. A provider of its own (all of `base_url`, `api_key`, `model`;
   * the key may be left out for the stored `base_url`) is checked with it first, no transaction
   * open meanwhile: refused 400, unreachable 502, nothing stored.
   */
  async put(teamId: string, input: ModelSettingsPutDto): Promise<ModelSettingsResponseDto> {
    const stored = await this.settings.find(teamId);
    const own = await this.ownProviderOf(input, stored);
    const allowedModels = input.allowed_models ?? null;
    if (own && allowedModels && !allowedModels.includes(own.model)) {
      throw Errors.validation(['model must be one of allowed_models']);
    }
    const now = new Date();
    const row: TeamModelSettingsEntity = {
      id: stored?.id ?? newId(),
      teamId,
      baseUrl: own?.baseUrl ?? null,
      apiKey: own?.sealedKey ?? null,
      model: own?.model ?? null,
      allowedModels,
      monthlyTokenBudget: input.monthly_token_budget ?? null,
      createdAt: stored?.createdAt ?? now,
      updatedAt: now,
    };
    await this.settings.save(row);
    return this.toResponse(row);
  }

  /** Back to the environment's provider, with no allowed-models list and no budget. */
  async delete(teamId: string): Promise<ModelSettingsResponseDto> {
    await this.settings.delete(teamId);
    return this.toResponse(null);
  }

  /** The team's rules for the model; none stored: the environment's provider, no limits. */
  async rulesOf(teamId: string): Promise<TeamModelRules> {
    const row = await this.settings.find(teamId);
    return {
      own:
        row?.baseUrl && row.apiKey && row.model
          ? { baseUrl: row.baseUrl, sealedKey: row.apiKey, model: row.model }
          : null,
      allowedModels: row?.allowedModels ?? null,
      monthlyTokenBudget: row?.monthlyTokenBudget ?? null,
    };
  }

  openKey(provider: OwnProvider): string {
    return this.secretBox.open(provider.sealedKey);
  }

  /**
   * Refuses (400) a workflow's `prompt_config.model` outside the writing team's
   * `allowed_models`, when it has such a list.
   */
  async assertModelAllowed(teamId: string, promptConfig: unknown): Promise<void> {
    const model = (promptConfig as { model?: unknown } | null | undefined)?.model;
    if (typeof model !== 'string' || !model.trim()) {
      return;
    }
    const allowed = (await this.settings.find(teamId))?.allowedModels;
    if (allowed && !allowed.includes(model.trim())) {
      throw Errors.validation([
        `prompt_config.model must be one of the team's allowed_models: ${allowed.join(', ')}`,
      ]);
    }
  }

  private async ownProviderOf(
    input: ModelSettingsPutDto,
    stored: TeamModelSettingsEntity | null,
  ): Promise<OwnProvider | null> {
    const baseUrl = input.base_url?.replace(/\/+$/, '') || null;
    const model = input.model?.trim() || null;
    const keepsKey = Boolean(baseUrl && stored?.apiKey && stored.baseUrl === baseUrl);
    const sent = { base_url: baseUrl, api_key: input.api_key || null, model };
    const given = PROVIDER_FIELDS.filter((field) => sent[field] !== null);
    if (given.length === 0) {
      return null;
    }
    const missing = PROVIDER_FIELDS.filter(
      (field) => sent[field] === null && !(field === 'api_key' && keepsKey),
    );
    if (missing.length > 0) {
      throw Errors.validation(
        missing.map(
          (field) =>
            `${field} is required with ${given.join(' and ')}: a provider of the team's own ` +
            "takes base_url, api_key and model (send none of them for the environment's)",
        ),
      );
    }
    const refusal = await this.outbound.refusal(baseUrl!);
    if (refusal) {
      throw Errors.validation([`base_url: ${refusal}`]);
    }
    const apiKey = sent.api_key ?? this.secretBox.open(stored!.apiKey!);
    await checkProviderKey(
      this.outbound.fetchFor(AbortSignal.timeout(this.checkTimeoutMs)),
      baseUrl!,
      apiKey,
    );
    return {
      baseUrl: baseUrl!,
      sealedKey: sent.api_key ? this.secretBox.seal(sent.api_key) : stored!.apiKey!,
      model: model!,
    };
  }

  private toResponse(row: TeamModelSettingsEntity | null): ModelSettingsResponseDto {
    const own = Boolean(row?.baseUrl && row.apiKey && row.model);
    return {
      source: own ? 'team' : 'environment',
      base_url: own ? row!.baseUrl : null,
      model: own ? row!.model : this.environmentModel,
      has_api_key: own,
      allowed_models: row?.allowedModels ?? null,
      monthly_token_budget: row?.monthlyTokenBudget ?? null,
      updated_at: row?.updatedAt.toISOString() ?? null,
    };
  }
}
