import { Errors } from '@/common/http/api-error';
import { ModelSettingsPutDto } from './dto/model-settings.dto';
import { TeamModelSettingsEntity } from './entities/team-model-settings.entity';

/** The provider a PUT asks for; `apiKey` null: the stored key stays (same base URL). */
export interface WantedProvider {
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

const PROVIDER_FIELDS = ['base_url', 'api_key', 'model'] as const;

/**
 * The team's own provider in `input`: none of `base_url`, `api_key`, `model` (null: the
 * environment's), or all three, the key left out only for the base URL already stored with
 * one. Half a provider is refused (400), naming what is missing.
 */
export function wantedProvider(
  input: ModelSettingsPutDto,
  stored: TeamModelSettingsEntity | null,
): WantedProvider | null {
  const baseUrl = input.base_url?.replace(/\/+$/, '') || null;
  const model = input.model?.trim() || null;
  const apiKey = input.api_key || null;
  const keepsKey = Boolean(baseUrl && stored?.apiKey && stored.baseUrl === baseUrl);
  const sent = { base_url: baseUrl, api_key: apiKey, model };
  const given = PROVIDER_FIELDS.filter((field) => sent[field] !== null);
  if (given.length === 0) {
    return null;
  }
  const missing = PROVIDER_FIELDS.filter(
    (field) => sent[field] === null && !(field === 'api_key' && keepsKey),
  );
  if (missing.length > 0 || !baseUrl || !model) {
    throw Errors.validation(
      missing.map(
        (field) =>
          `${field} is required with ${given.join(' and ')}: a provider of the team's own ` +
          "takes base_url, api_key and model (send none of them for the environment's)",
      ),
    );
  }
  return { baseUrl, apiKey, model };
}
