import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { WritePhase } from '@/common/idempotency/write-phase';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { SecretBox } from '@/config/secret-box';
import { ModelSettingsPutDto, ModelSettingsResponseDto } from './dto/model-settings.dto';
import { TeamModelSettingsEntity } from './entities/team-model-settings.entity';
import { ModelSettingsRepository } from './model-settings.repository';
import { wantedProvider, WantedProvider } from './provider-input';
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
    private readonly writePhase: WritePhase,
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
    const wanted = wantedProvider(input, stored);
    const allowedModels = input.allowed_models ?? null;
    if (wanted && allowedModels && !allowedModels.includes(wanted.model)) {
      throw Errors.validation(['allowed_models: must include the provider model']);
    }
    const own = wanted ? await this.checked(wanted, stored) : null;
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
    return this.writePhase.run(async () => {
      await this.settings.save(row);
      return this.toResponse(row);
    });
  }

  /** Back to the environment's provider, with no allowed-models list and no budget. */
  delete(teamId: string): Promise<void> {
    return this.settings.delete(teamId);
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
        `prompt_config.model: must be one of the team's allowed_models (${allowed.join(', ')})`,
      ]);
    }
  }

  /**
   * The provider checked with itself (`GET /models`), no transaction open meanwhile: its address
   * refused or its key refused 400, unreachable 502. Its key sealed, for storing.
   */
  private async checked(
    wanted: WantedProvider,
    stored: TeamModelSettingsEntity | null,
  ): Promise<OwnProvider> {
    const refusal = await this.outbound.refusal(wanted.baseUrl);
    if (refusal) {
      throw Errors.validation([`base_url: ${refusal}`]);
    }
    const sealedKey = wanted.apiKey ? this.secretBox.seal(wanted.apiKey) : stored!.apiKey!;
    await checkProviderKey(
      this.outbound.fetchFor(AbortSignal.timeout(this.checkTimeoutMs)),
      wanted.baseUrl,
      wanted.apiKey ?? this.secretBox.open(sealedKey),
    );
    return { baseUrl: wanted.baseUrl, sealedKey, model: wanted.model };
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
