import { Errors } from '@/common/http/api-error';
import { FetchFn } from '@/common/outbound/outbound-http';

/** What Meta says of an id the credentials were checked against. */
export interface MetaAccount {
  /** The display number (WhatsApp) or the page's name (Messenger, Instagram), when given. */
  label: string | null;
}

/**
 * Checks a token with Meta before anything is stored: `GET {base}/{id}` with it. Meta refusing
 * it (a 4xx) is the caller's mistake, 400; Meta not answering, or failing, is 502.
 */
export async function checkMetaCredentials(
  fetch: FetchFn,
  graphBaseUrl: string,
  id: string,
  token: string,
  fields: string,
): Promise<MetaAccount> {
  let response: Response;
  try {
    response = await fetch(`${graphBaseUrl}/${id}?fields=${fields}`, {
      headers: { Authorization: `Bearer ${token}` },
      redirect: 'error',
    });
  } catch {
    throw Errors.upstream('Meta could not be reached to check the credentials; nothing was stored');
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.status >= 400 && response.status < 500) {
    const error = body?.error as { message?: unknown } | undefined;
    const reason = typeof error?.message === 'string' ? `: ${error.message.slice(0, 300)}` : '';
    throw Errors.badRequest(`Meta refused the credentials${reason.replace(token, '…')}`);
  }
  if (!response.ok) {
    throw Errors.upstream(`Meta answered ${response.status}; nothing was stored`);
  }
  const label = body?.display_phone_number ?? body?.name;
  return { label: typeof label === 'string' ? label.slice(0, 255) : null };
}
