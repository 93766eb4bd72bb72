import { MediaMessageType, MessageAttachment } from '../entities/message.entity';
import { customerMessage, MessageDraft } from './message-draft';

/** A customer's message as a provider's channel delivers it (docs/api.md §4d). */
export interface ChannelContent {
  kind: 'text' | MediaMessageType;
  /** The text, the caption, or for a location "lat,long name". */
  text: string | null;
  media: {
    /** WhatsApp's media id, or Messenger's and Instagram's attachment URL. */
    providerId: string;
    mimeType: string | null;
    caption: string | null;
  } | null;
}

/** The console URL of a message's attachment: the route that streams it from the provider. */
export function attachmentUrl(
  consoleUrl: string,
  at: { agentId: string; conversationId: string; id: string },
  index: number,
): string {
  return (
    `${consoleUrl}/agents/${at.agentId}/conversations/${at.conversationId}` +
    `/messages/${at.id}/attachments/${index}`
  );
}

/**
 * The customer's message to store: its text (the caption, else its kind in brackets, which the
 * reply pipeline answers as any text) and, for media, the kind and the attachment.
 */
export function channelDraft(consoleUrl: string, content: ChannelContent): MessageDraft {
  const text = content.text?.trim() || `(${content.kind})`;
  const draft = customerMessage(text);
  if (content.kind === 'text') {
    return draft;
  }
  const { kind, media } = content;
  return {
    ...draft,
    messageType: kind,
    attachments: (at) =>
      media
        ? [
            {
              type: kind,
              url: attachmentUrl(consoleUrl, at, 0),
              provider_id: media.providerId,
              mime_type: media.mimeType,
              caption: media.caption,
            } satisfies MessageAttachment,
          ]
        : [],
  };
}
