import { ApiError } from '@/common/http/api-error';
import { TeamModelSettingsEntity } from './entities/team-model-settings.entity';
import { wantedProvider } from './provider-input';

const URL = 'https://llm.example.com/v1';
const stored = { baseUrl: URL, apiKey: 'v1.sealed', model: 'm' } as TeamModelSettingsEntity;

function refusal(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    return (error as ApiError).messages as string[];
  }
  throw new Error('not refused');
}

describe('wantedProvider', () => {
  it("is null without any provider field: the environment's", () => {
    expect(wantedProvider({ monthly_token_budget: 5 }, stored)).toBeNull();
    expect(wantedProvider({ base_url: null, api_key: '', model: '  ' }, null)).toBeNull();
  });

  it('takes all three, trimmed, the base URL without its trailing slashes', () => {
    expect(wantedProvider({ base_url: `${URL}//`, api_key: 'k', model: ' gpt ' }, null)).toEqual({
      baseUrl: URL,
      apiKey: 'k',
      model: 'gpt',
    });
  });

  it('keeps the stored key for the stored base URL only', () => {
    expect(wantedProvider({ base_url: `${URL}/`, model: 'm2' }, stored)).toEqual({
      baseUrl: URL,
      apiKey: null,
      model: 'm2',
    });
    expect(
      refusal(() => wantedProvider({ base_url: 'https://other.example/v1', model: 'm' }, stored)),
    ).toEqual([expect.stringMatching(/^api_key is required with base_url and model/)]);
  });

  it('names every missing field of half a provider', () => {
    expect(refusal(() => wantedProvider({ api_key: 'k' }, stored))).toEqual([
      expect.stringMatching(/^base_url is required with api_key/),
      expect.stringMatching(/^model is required with api_key/),
    ]);
  });
});
