import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { httpCall, masked, parsedBody, shortBody } from '../../actions/http-call';

export type ProviderType = 'stripe' | 'paystack' | 'bumpa';

export const PROVIDER_NAMES: Record<ProviderType, string> = {
  stripe: 'Stripe',
  paystack: 'Paystack',
  bumpa: 'Bumpa',
};

export interface ProviderRequest {
  method: 'GET' | 'POST';
  /** Below the provider's base URL, with its query if any. */
  path: string;
  /** `Authorization: Bearer <secret>`, or `X-Api-Key: <secret>`. */
  auth: { scheme: 'bearer' | 'x-api-key'; secret: string };
  form?: string;
  json?: unknown;
}

export type ProviderReply =
  { kind: 'answered'; status: number; body: unknown } | { kind: 'unreachable'; reason: string };

/**
 * Calls a provider's API at its configured base URL (STRIPE_API_BASE_URL, …), through the
 * outbound guard, within OUTBOUND_TIMEOUT_MS.
 */
@Injectable()
export class ProviderClient {
  private readonly baseUrls: Record<ProviderType, string>;

  constructor(
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.baseUrls = config.integrations.providers;
  }

  async request(provider: ProviderType, request: ProviderRequest): Promise<ProviderReply> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (request.auth.scheme === 'bearer') {
      headers.Authorization = `Bearer ${request.auth.secret}`;
    } else {
      headers['X-Api-Key'] = request.auth.secret;
    }
    let body: string | undefined;
    if (request.form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = request.form;
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const outcome = await httpCall(this.outbound, {
      method: request.method,
      url: `${this.baseUrls[provider]}${request.path}`,
      headers,
      body,
      timeoutMs: this.outbound.timeoutMs,
      secrets: [request.auth.secret],
    });
    if (outcome.kind === 'failed') {
      return { kind: 'unreachable', reason: outcome.reason };
    }
    // A provider may quote the key it was sent (in an error above all): it goes no further.
    return {
      kind: 'answered',
      status: outcome.status,
      body: parsedBody(masked(outcome.text, [request.auth.secret])),
    };
  }
}

/** The message a provider put in its error body (Stripe `error.message`, others `message`). */
export function providerMessage(body: unknown): string {
  if (body && typeof body === 'object') {
    const record = body as { error?: { message?: unknown }; message?: unknown };
    const message = record.error?.message ?? record.message;
    if (typeof message === 'string') {
      return shortBody(message);
    }
    return shortBody(JSON.stringify(body));
  }
  return typeof body === 'string' ? shortBody(body) : '';
}

/** `{a: {b: [1]}}` → `a[b][0]=1`: Stripe's form encoding of nested parameters. */
export function formEncode(params: Record<string, unknown>): string {
  const pairs: Array<[string, string]> = [];
  const walk = (prefix: string, value: unknown) => {
    if (value === undefined || value === null) {
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(`${prefix}[${index}]`, item));
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        walk(prefix ? `${prefix}[${key}]` : key, item);
      }
    } else if (
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean'
    ) {
      pairs.push([prefix, String(value)]);
    }
  };
  walk('', params);
  return new URLSearchParams(pairs).toString();
}

// Stripe's list (docs "Zero-decimal currencies"); Paystack's currencies all have two decimals.
const ZERO_DECIMAL = new Set(
  'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '),
);
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

function exponentOf(currency: string): number {
  const code = currency.toUpperCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

/** 25.5 NGN → 2550: what providers take (the smallest unit of the currency). */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** exponentOf(currency));
}

/** 2550 NGN → 25.5. */
export function fromMinorUnits(amount: unknown, currency: string): number | null {
  const minor = typeof amount === 'string' ? Number(amount) : amount;
  return typeof minor === 'number' && Number.isFinite(minor)
    ? minor / 10 ** exponentOf(currency)
    : null;
}
