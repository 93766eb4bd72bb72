import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import type { ProviderChannel } from '@/modules/agents/provider-channels.service';
import {
  classifySendFailure,
  messengerTextRequest,
  parseSendSuccess,
  SendRequest,
  whatsappTextRequest,
} from './meta/send-payloads';

/** What one try of a send came to. */
export type SendOutcome =
  { ok: true; providerMessageId: string | null } | { ok: false; retryable: boolean; error: string };

/**
 * Sends one text to a customer through the channel's provider: WhatsApp `POST
 * /{phone_number_id}/messages`, Messenger and Instagram `POST /me/messages`, the token as Bearer
 * (docs/api.md §4d). Meta's Graph API is a service the operator configures (META_GRAPH_BASE_URL):
 * it goes through the outbound module's operator fetch (a deadline, a capped answer, never inside
 * a transaction).
 */
@Injectable()
export class ChannelSender {
  private readonly graphBaseUrl: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.graphBaseUrl = config.meta.graphBaseUrl;
    this.timeoutMs = config.outbound.timeoutMs;
  }

  async sendText(
    channel: ProviderChannel,
    secrets: Record<string, string>,
    recipient: string,
    text: string,
  ): Promise<SendOutcome> {
    const token = secrets.access_token;
    const request = this.requestFor(channel, recipient, text);
    if (!token || !request) {
      return { ok: false, retryable: false, error: 'nothing to send, or the channel has no token' };
    }
    let response: Response;
    try {
      response = await this.outbound.operatorFetch(this.timeoutMs)(request.url, {
        method: 'POST',
        redirect: 'error',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(request.body),
      });
    } catch {
      const failure = classifySendFailure(null, null, [token]);
      return { ok: false, retryable: failure.retryable, error: failure.message };
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) {
      return { ok: true, providerMessageId: parseSendSuccess(body) };
    }
    const failure = classifySendFailure(response.status, body, [token, secrets.app_secret ?? '']);
    return { ok: false, retryable: failure.retryable, error: failure.message };
  }

  private requestFor(
    channel: ProviderChannel,
    recipient: string,
    text: string,
  ): SendRequest | null {
    if (channel.type === 'whatsapp') {
      const phoneNumberId = channel.config.phone_number_id;
      return phoneNumberId
        ? whatsappTextRequest(this.graphBaseUrl, phoneNumberId, recipient, text)
        : null;
    }
    return messengerTextRequest(this.graphBaseUrl, recipient, text);
  }
}
