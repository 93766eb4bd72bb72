import { Readable } from 'node:stream';
import type { ReadableStreamReadResult } from 'node:stream/web';
import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { OutboundHttp, ResponseTooLargeError } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { ProviderChannels } from '@/modules/agents/provider-channels.service';
import type { ConversationEntity } from '../entities/conversation.entity';
import { MessageAttachment, MessageEntity } from '../entities/message.entity';

/** The media an attachment route answers with: its type, its size when known, its bytes. */
export interface MediaBody {
  mimeType: string;
  size: number | null;
  body: Readable;
}

const GONE = 'Attachment not found';

/**
 * Fetches a customer's media from the channel's provider on demand, with the channel's token
 * (docs/api.md §4d): WhatsApp's `GET {graph}/{media_id}` names a URL, fetched with the token as
 * Bearer; Messenger's and Instagram's attachment URL (from the signed notification) is fetched
 * with it too. Meta's Graph base is the
 * operator's (operator fetch); a URL Meta hands back goes through the address guard. Nothing over
 * `META_MEDIA_MAX_BYTES` is relayed.
 */
@Injectable()
export class MediaAttachments {
  private readonly graphBaseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly channels: ProviderChannels,
    config: AppConfig,
  ) {
    this.graphBaseUrl = config.meta.graphBaseUrl;
    this.timeoutMs = config.outbound.timeoutMs;
    this.maxBytes = config.meta.mediaMaxBytes;
  }

  async fetch(
    conversation: ConversationEntity,
    message: MessageEntity,
    index: number,
  ): Promise<MediaBody> {
    const attachment = message.attachments[index] as MessageAttachment | undefined;
    const found = conversation.channelId
      ? await this.channels.withSecrets(conversation.teamId, conversation.channelId)
      : null;
    const token = found?.secrets.access_token;
    if (!attachment?.provider_id || !found || !token) {
      throw Errors.notFound(GONE);
    }
    const auth = { Authorization: `Bearer ${token}` };
    let source = attachment.provider_id;
    let mimeType = attachment.mime_type;
    if (found.channel.type === 'whatsapp') {
      const described = await this.describe(attachment.provider_id, auth);
      source = described.url;
      mimeType = described.mimeType ?? mimeType;
    }
    const response = await this.call(() =>
      this.outbound.fetchFor(AbortSignal.timeout(this.timeoutMs), this.maxBytes)(source, {
        // Never followed: a redirect to an IP literal would pass the address guard's DNS check.
        redirect: 'error',
        headers: auth,
      }),
    );
    if (!response.ok || !response.body) {
      throw Errors.upstream(`The provider answered ${response.status} for the media`);
    }
    const size = Number(response.headers.get('content-length') ?? NaN);
    this.checkSize(Number.isFinite(size) ? size : null);
    return {
      mimeType: mimeType ?? response.headers.get('content-type') ?? 'application/octet-stream',
      size: Number.isFinite(size) ? size : null,
      body: await this.started(response.body),
    };
  }

  /**
   * The body with its first chunk read already: a failure before any byte (the cap passed at
   * once, the provider gone) is still an answer of its own (502); past it, the headers are out and
   * only the connection can be cut.
   */
  private async started(body: ReadableStream<Uint8Array>): Promise<Readable> {
    const reader = body.getReader();
    let first: ReadableStreamReadResult<Uint8Array>;
    try {
      first = await reader.read();
    } catch (error) {
      throw error instanceof ResponseTooLargeError
        ? this.tooLarge()
        : Errors.upstream('The provider could not be reached for the media');
    }
    async function* chunks(): AsyncGenerator<Uint8Array> {
      try {
        for (let next = first; !next.done; next = await reader.read()) {
          yield next.value;
        }
      } finally {
        // A reader that went away stops the download too.
        await reader.cancel().catch(() => undefined);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  /** WhatsApp: `GET /{media_id}` → `{ url, mime_type, file_size }`. */
  private async describe(
    mediaId: string,
    auth: Record<string, string>,
  ): Promise<{ url: string; mimeType: string | null }> {
    const response = await this.call(() =>
      this.outbound.operatorFetch(this.timeoutMs)(
        `${this.graphBaseUrl}/${encodeURIComponent(mediaId)}`,
        { redirect: 'error', headers: auth },
      ),
    );
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (response.status === 404 || response.status === 400) {
      throw Errors.notFound(GONE);
    }
    if (!response.ok || typeof body?.url !== 'string') {
      throw Errors.upstream(`The provider answered ${response.status} for the media`);
    }
    this.checkSize(typeof body.file_size === 'number' ? body.file_size : null);
    return {
      url: body.url,
      mimeType: typeof body.mime_type === 'string' ? body.mime_type : null,
    };
  }

  private checkSize(size: number | null): void {
    if (size !== null && size > this.maxBytes) {
      throw this.tooLarge();
    }
  }

  private tooLarge(): Error {
    return Errors.upstream(`The media is larger than the ${this.maxBytes}-byte limit`);
  }

  private async call(request: () => Promise<Response>): Promise<Response> {
    try {
      return await request();
    } catch {
      throw Errors.upstream('The provider could not be reached for the media');
    }
  }
}
