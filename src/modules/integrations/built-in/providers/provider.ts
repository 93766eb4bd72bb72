import { ActionExecution } from '../../actions/action-executor';
import {
  PROVIDER_NAMES,
  ProviderClient,
  ProviderReply,
  ProviderRequest,
  ProviderType,
  providerMessage,
} from './provider-client';

export type CredentialCheck =
  { kind: 'accepted' } | { kind: 'refused' } | { kind: 'unreachable'; reason: string };

/** What an action of a provider gets: the client, the connector's secrets and settings. */
export interface ProviderContext {
  client: ProviderClient;
  secrets: Record<string, string>;
  config: Record<string, unknown>;
}

export type ActionRun = (
  context: ProviderContext,
  args: Record<string, unknown>,
) => Promise<ActionExecution>;

/** A credential connector's provider: how its secret is checked, and how each action runs. */
export interface Provider {
  type: ProviderType;
  /** The configure-body field that holds the secret the check sends. */
  secretField: 'token' | 'secret_key';
  check(client: ProviderClient, secret: string): Promise<CredentialCheck>;
  actions: Record<string, ActionRun>;
}

/**
 * A provider's credential check: one GET of `path` (a read that needs a working key and changes
 * nothing) sent with the secret under `scheme`.
 */
export const readCheck =
  (provider: ProviderType, path: string, scheme: ProviderRequest['auth']['scheme']) =>
  async (client: ProviderClient, secret: string): Promise<CredentialCheck> =>
    credentialCheck(
      provider,
      await client.request(provider, { method: 'GET', path, auth: { scheme, secret } }),
    );

/** A check's reply: 2xx accepted, 401/403 refused, anything else the provider failing. */
function credentialCheck(provider: ProviderType, reply: ProviderReply): CredentialCheck {
  if (reply.kind === 'unreachable') {
    return reply;
  }
  if (reply.status >= 200 && reply.status < 300) {
    return { kind: 'accepted' };
  }
  if (reply.status === 401 || reply.status === 403) {
    return { kind: 'refused' };
  }
  const message = providerMessage(reply.body);
  return {
    kind: 'unreachable',
    reason: `answered ${reply.status}${message ? `: ${message}` : ''}`,
  };
}

export type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

/** The provider's 2xx JSON answer, or the failure said the way a person can act on. */
export async function ask(
  context: ProviderContext,
  provider: ProviderType,
  request: ProviderRequest,
): Promise<Answer> {
  const name = PROVIDER_NAMES[provider];
  const reply = await context.client.request(provider, request);
  if (reply.kind === 'unreachable') {
    return { ok: false, error: `${name} ${reply.reason}` };
  }
  const message = providerMessage(reply.body);
  if (reply.status === 401 || reply.status === 403) {
    return {
      ok: false,
      error: `${name} refused the connector's key (${reply.status}${message ? `: ${message}` : ''}): update it in the dashboard`,
    };
  }
  if (reply.status < 200 || reply.status >= 300) {
    return { ok: false, error: `${name} answered ${reply.status}${message ? `: ${message}` : ''}` };
  }
  if (!reply.body || typeof reply.body !== 'object' || Array.isArray(reply.body)) {
    return { ok: false, error: `${name} answered something other than a JSON object` };
  }
  return { ok: true, body: reply.body as Record<string, unknown> };
}

/** The currency an action uses: its argument, else the connector's setting. */
export function currencyOf(context: ProviderContext, args: Record<string, unknown>): string | null {
  const currency = args.currency ?? context.config.currency;
  return typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency)
    ? currency.toUpperCase()
    : null;
}

export const failed = (error: string): ActionExecution => ({ ok: false, error });

/**
 * `value` as one segment of a provider's path, encoded; null for what would not stay one
 * (empty, `.` or `..`, which URLs read as steps up the path even encoded: `/verify/..` is the
 * list endpoint above it).
 */
export function pathSegment(value: unknown): string | null {
  const text = textOf(value);
  return text === '' || text === '.' || text === '..' ? null : encodeURIComponent(text);
}

/** A string or number field of an answer as text; `fallback` for anything else. */
export function textOf(value: unknown, fallback = ''): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}
