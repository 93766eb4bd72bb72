import { field, httpUrl, id, list, locationText, MAX_ID, text, unixTime } from './bounded-json';
import { collect, NotificationCollector } from './notification-collector';
import { InboundKind, InboundMessage, ParsedNotification } from './notification-types';

const OBJECT_OF = { messenger: 'page', instagram: 'instagram' } as const;

const ATTACHMENT_KINDS: Record<string, InboundKind> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  file: 'document',
  location: 'location',
};

/**
 * A Messenger (`object: page`) or Instagram (`object: instagram`) webhook body as the messages
 * customers sent and the delivery and read receipts of ours. Echoes of our own messages and
 * anything the page itself sent are skipped. Receipts naming message ids become statuses;
 * those with only a watermark (Messenger's `read`, a `delivery` without `mids`) become
 * watermarks. A message with several attachments is read as its first usable one, the others
 * are counted as ignored. Never throws; see ParsedNotification for the caps.
 */
export function parseMessengerNotification(
  body: unknown,
  channelType: 'messenger' | 'instagram',
): ParsedNotification {
  return collect((out) => {
    if (field(body, 'object') !== OBJECT_OF[channelType]) {
      out.ignore();
      return;
    }
    out.each(list(body, 'entry'), (entry) => {
      const ownId = id(field(entry, 'id'));
      out.each(list(entry, 'messaging'), (event) => readEvent(event, ownId, out));
    });
  });
}

function readEvent(event: unknown, ownId: string | null, out: NotificationCollector): void {
  const sender = id(field(field(event, 'sender'), 'id'));
  if (sender === null || sender === ownId) {
    out.ignore();
    return;
  }
  const message = field(event, 'message');
  const delivery = field(event, 'delivery');
  const read = field(event, 'read');
  if (message !== undefined) {
    out.message(readMessage(message, sender, field(event, 'timestamp'), out));
  } else if (delivery !== undefined) {
    readReceipt(delivery, 'delivered', sender, out);
  } else if (read !== undefined) {
    readReceipt(read, 'read', sender, out);
  } else {
    out.ignore();
  }
}

function readMessage(
  message: unknown,
  from: string,
  timestamp: unknown,
  out: NotificationCollector,
): InboundMessage | null {
  const providerMessageId = id(field(message, 'mid'));
  if (
    providerMessageId === null ||
    field(message, 'is_echo') === true ||
    field(message, 'is_deleted') === true ||
    field(message, 'is_unsupported') === true
  ) {
    return null;
  }
  const body = text(field(message, 'text'));
  const attachments = list(message, 'attachments');
  const attached = firstAttachment(attachments, body);
  const common = {
    providerMessageId,
    from,
    profileName: null,
    timestamp: unixTime(timestamp, 'milliseconds'),
  };
  if (attached !== null) {
    out.ignore(attachments.length - 1);
    return { ...common, ...attached };
  }
  return body === null ? null : { ...common, kind: 'text', text: body, media: null };
}

type Content = Pick<InboundMessage, 'kind' | 'text' | 'media'>;

/** The first attachment of a kind we keep; the message's own text, if any, is its caption. */
function firstAttachment(attachments: readonly unknown[], caption: string | null): Content | null {
  for (const attachment of attachments.slice(0, 10)) {
    const content = readAttachment(attachment, caption);
    if (content !== null) {
      return content;
    }
  }
  return null;
}

function readAttachment(attachment: unknown, caption: string | null): Content | null {
  const type = field(attachment, 'type');
  const payload = field(attachment, 'payload');
  const kind =
    typeof type === 'string' && Object.hasOwn(ATTACHMENT_KINDS, type)
      ? ATTACHMENT_KINDS[type]
      : null;
  if (kind === 'location') {
    const coordinates = field(payload, 'coordinates');
    const location = locationText(
      field(coordinates, 'lat'),
      field(coordinates, 'long'),
      field(attachment, 'title'),
    );
    return location === null ? null : { kind, text: location, media: null };
  }
  const url = httpUrl(field(payload, 'url'));
  if (kind === null || url === null) {
    return null;
  }
  const sticker = kind === 'image' && id(field(payload, 'sticker_id')) !== null;
  return {
    kind: sticker ? 'sticker' : kind,
    text: caption,
    media: { providerId: null, url, mimeType: text(field(payload, 'mime_type'), MAX_ID), caption },
  };
}

/**
 * `delivery: { mids, watermark }` and `read: { watermark }` (Messenger) or `read: { mid }`
 * (Instagram). `recipient` of the status is the customer: the sender of the receipt.
 */
function readReceipt(
  receipt: unknown,
  kind: 'delivered' | 'read',
  customer: string,
  out: NotificationCollector,
): void {
  const mids = list(receipt, 'mids');
  const single = field(receipt, 'mid');
  if (mids.length > 0 || single !== undefined) {
    const status = (mid: unknown) => {
      const providerMessageId = id(mid);
      out.status(
        providerMessageId === null
          ? null
          : { providerMessageId, status: kind, error: null, recipient: customer },
      );
    };
    out.each(single === undefined ? mids : [single], status, () => out.statusesFull);
    return;
  }
  const watermark = unixTime(field(receipt, 'watermark'), 'milliseconds');
  out.watermark(watermark === null ? null : { recipient: customer, status: kind, watermark });
}
