import type { ChannelContent } from '@/modules/conversations/conversations.public';
import { InboundMessage } from '../meta/webhook-payloads';

/** What the conversation stores of a message: its kind, its text or caption, its media. */
export function contentOf({ kind, text, media }: InboundMessage): ChannelContent {
  const providerId = media?.providerId ?? media?.url;
  return {
    kind,
    text,
    media: providerId
      ? { providerId, mimeType: media?.mimeType ?? null, caption: media?.caption ?? null }
      : null,
  };
}
