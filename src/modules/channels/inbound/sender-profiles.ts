import { Injectable, Logger } from '@nestjs/common';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';

/** The user fields each provider's profile answers with a name: Instagram adds the handle. */
const FIELDS = { messenger: 'name', instagram: 'name,username' } as const;
const MAX_NAME = 255;

function nameIn(body: unknown): string | null {
  const profile = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  const name = [profile.name, profile.username].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return name ? name.trim().slice(0, MAX_NAME) : null;
}

/**
 * The profile name of a Messenger or Instagram sender, whose notifications carry none (docs/api.md
 * §4d): `GET {graph}/{sender id}?fields=…` with the page token, through the outbound module's
 * operator fetch (its deadline bounds the wait). Best effort: any failure is no name.
 */
@Injectable()
export class SenderProfiles {
  private readonly logger = new Logger(SenderProfiles.name);
  private readonly graphBaseUrl: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.graphBaseUrl = config.meta.graphBaseUrl;
    this.timeoutMs = config.outbound.timeoutMs;
  }

  async nameOf(
    type: keyof typeof FIELDS,
    senderId: string,
    token: string | undefined,
  ): Promise<string | null> {
    if (!token) {
      return null;
    }
    const url = `${this.graphBaseUrl}/${encodeURIComponent(senderId)}?fields=${FIELDS[type]}`;
    try {
      const response = await this.outbound.operatorFetch(this.timeoutMs)(url, {
        headers: { Authorization: `Bearer ${token}` },
        redirect: 'error',
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        this.logger.debug({ status: response.status, channel_type: type }, 'No sender profile');
        return null;
      }
      return nameIn(body);
    } catch {
      this.logger.debug({ channel_type: type }, 'Sender profile unreachable');
      return null;
    }
  }
}
