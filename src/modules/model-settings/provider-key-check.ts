import { Errors } from '@/common/http/api-error';
import { FetchFn, OutboundRefusedError } from '@/common/outbound/outbound-http';

/**
 * Checks a team's provider before anything is stored: `GET {baseUrl}/models` with its key, as
 * every OpenAI-compatible API serves it. The key refused (401, 403) or the URL not such an API
 * (another 4xx) is the caller's mistake, 400; the provider not answering, or failing, is 502.
 * Neither message ever holds the key.
 */
export async function checkProviderKey(
  fetch: FetchFn,
  baseUrl: string,
  apiKey: string,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/models`, {
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      redirect: 'error',
    });
  } catch (error) {
    // A refused address fails the fetch itself, or its connection (the cause, under undici).
    const refused = [error, (error as { cause?: unknown }).cause].find(
      (each) => each instanceof OutboundRefusedError,
    );
    if (refused) {
      throw Errors.validation([`base_url: ${refused.message}`]);
    }
    throw Errors.upstream('The provider could not be reached to check the key; nothing was stored');
  }
  await response.body?.cancel();
  if (response.status === 401 || response.status === 403) {
    throw Errors.validation([
      `api_key: the provider refused this key (GET /models answered ${response.status})`,
    ]);
  }
  if (response.status >= 400 && response.status < 500) {
    throw Errors.validation([
      `base_url: GET /models answered ${response.status}: not an OpenAI-compatible API base URL`,
    ]);
  }
  if (!response.ok) {
    throw Errors.upstream(`The provider answered ${response.status}; nothing was stored`);
  }
}
