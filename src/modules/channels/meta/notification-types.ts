export type InboundKind =
  'text' | 'image' | 'audio' | 'video' | 'document' | 'location' | 'sticker';

export interface InboundMedia {
  /** WhatsApp's media id, to resolve with `GET /{media_id}`. */
  providerId: string | null;
  /** Messenger/Instagram: the attachment's `payload.url`. */
  url: string | null;
  mimeType: string | null;
  caption: string | null;
}

export interface InboundMessage {
  providerMessageId: string;
  /** WhatsApp: the sender's wa_id; Messenger/Instagram: the sender's page-scoped id. */
  from: string;
  /** WhatsApp's contacts[].profile.name; Messenger/Instagram send none (null). */
  profileName: string | null;
  timestamp: Date | null;
  kind: InboundKind;
  /** The text body, a caption, or for a location "lat,long name". */
  text: string | null;
  media: InboundMedia | null;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusUpdate {
  /** The id the send API answered for our own outbound message. */
  providerMessageId: string;
  status: DeliveryStatus;
  error: string | null;
  /** The customer the message went to. */
  recipient: string | null;
}

/**
 * Messenger's `delivery` without `mids` and `read` (Messenger's only has a watermark): every
 * message sent to `recipient` at or before `watermark` has reached that status.
 */
export interface StatusWatermark {
  recipient: string;
  status: 'delivered' | 'read';
  watermark: Date;
}

export interface ParsedNotification {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  /** Always empty for WhatsApp, whose statuses name each message. */
  watermarks: StatusWatermark[];
  /** Events, entries or items in the body that were skipped: unknown, malformed, over a cap. */
  ignored: number;
}
