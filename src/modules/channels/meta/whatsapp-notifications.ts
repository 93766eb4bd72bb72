import {
  field,
  id,
  isRecord,
  list,
  locationText,
  MAX_ID,
  MAX_ITEMS,
  text,
  unixTime,
} from './bounded-json';
import { collect, NotificationCollector } from './notification-collector';
import {
  DeliveryStatus,
  InboundKind,
  InboundMessage,
  ParsedNotification,
  StatusUpdate,
} from './notification-types';

const MEDIA_KINDS = new Set<InboundKind>(['image', 'audio', 'video', 'document', 'sticker']);
const STATUSES = new Set<DeliveryStatus>(['sent', 'delivered', 'read', 'failed']);
const MAX_ERROR = 500;

/**
 * A WhatsApp Cloud API webhook body (`object: whatsapp_business_account`) as the messages and
 * delivery statuses it carries. Never throws; see ParsedNotification for the caps.
 */
export function parseWhatsAppNotification(body: unknown): ParsedNotification {
  return collect((out) => {
    if (field(body, 'object') !== 'whatsapp_business_account') {
      out.ignore();
      return;
    }
    out.each(list(body, 'entry'), (entry) =>
      out.each(list(entry, 'changes'), (change) => {
        const value = field(change, 'value');
        if (field(change, 'field') !== 'messages' || !isRecord(value)) {
          out.ignore();
        } else {
          readChange(value, out);
        }
      }),
    );
  });
}

/** The `metadata.phone_number_id` of the body's first change, to check against the channel's. */
export function phoneNumberIdOf(body: unknown): string | null {
  const entry = list(body, 'entry')[0];
  const change = list(entry, 'changes')[0];
  return id(field(field(field(change, 'value'), 'metadata'), 'phone_number_id'));
}

function readChange(value: Record<string, unknown>, out: NotificationCollector): void {
  const contacts = list(value, 'contacts').slice(0, MAX_ITEMS);
  out.each(
    list(value, 'messages'),
    (message) => out.message(readMessage(message, contacts)),
    () => out.messagesFull,
  );
  out.each(
    list(value, 'statuses'),
    (status) => out.status(readStatus(status)),
    () => out.statusesFull,
  );
}

function readMessage(message: unknown, contacts: readonly unknown[]): InboundMessage | null {
  const providerMessageId = id(field(message, 'id'));
  const from = id(field(message, 'from'));
  const content = readContent(message);
  if (providerMessageId === null || from === null || content === null) {
    return null;
  }
  return {
    providerMessageId,
    from,
    profileName: profileNameOf(from, contacts),
    timestamp: unixTime(field(message, 'timestamp'), 'seconds'),
    ...content,
  };
}

type Content = Pick<InboundMessage, 'kind' | 'text' | 'media'>;

/**
 * Text, media and locations; the reply a customer taps on a button or list is read as the text
 * it shows. Reactions, contacts, orders, system and unsupported messages are not content.
 */
function readContent(message: unknown): Content | null {
  const type = field(message, 'type');
  if (typeof type !== 'string') {
    return null;
  }
  const part = field(message, type);
  if (type === 'text') {
    return textContent(field(part, 'body'));
  }
  if (type === 'button') {
    return textContent(field(part, 'text'));
  }
  if (type === 'interactive') {
    const reply = field(part, 'button_reply') ?? field(part, 'list_reply');
    return textContent(field(reply, 'title'));
  }
  if (type === 'location') {
    const location = locationText(
      field(part, 'latitude'),
      field(part, 'longitude'),
      field(part, 'name'),
    );
    return location === null ? null : { kind: 'location', text: location, media: null };
  }
  if (!MEDIA_KINDS.has(type as InboundKind)) {
    return null;
  }
  const providerId = id(field(part, 'id'));
  if (providerId === null) {
    return null;
  }
  const caption = text(field(part, 'caption'));
  return {
    kind: type as InboundKind,
    text: caption,
    media: { providerId, url: null, mimeType: text(field(part, 'mime_type'), MAX_ID), caption },
  };
}

function textContent(value: unknown): Content | null {
  const body = text(value);
  return body === null ? null : { kind: 'text', text: body, media: null };
}

function profileNameOf(from: string, contacts: readonly unknown[]): string | null {
  const own = contacts.find((contact) => id(field(contact, 'wa_id')) === from);
  const contact = own ?? (contacts.length === 1 ? contacts[0] : undefined);
  return text(field(field(contact, 'profile'), 'name'), MAX_ID);
}

function readStatus(status: unknown): StatusUpdate | null {
  const providerMessageId = id(field(status, 'id'));
  const value = field(status, 'status');
  if (providerMessageId === null || !STATUSES.has(value as DeliveryStatus)) {
    return null;
  }
  return {
    providerMessageId,
    status: value as DeliveryStatus,
    error: value === 'failed' ? (errorText(list(status, 'errors')[0]) ?? 'failed') : null,
    recipient: id(field(status, 'recipient_id')),
  };
}

/** "title: details (code 131047)", from WhatsApp's errors[0]. */
function errorText(error: unknown): string | null {
  const summary =
    text(field(error, 'message'), MAX_ERROR) ?? text(field(error, 'title'), MAX_ERROR);
  const details = text(field(field(error, 'error_data'), 'details'), MAX_ERROR);
  const code = field(error, 'code');
  const parts = [summary, details && details !== summary ? details : null].filter(Boolean);
  const codeText = Number.isSafeInteger(code) ? `(code ${String(code)})` : null;
  const joined = [parts.join(': '), codeText].filter(Boolean).join(' ');
  return joined === '' ? null : text(joined, MAX_ERROR);
}
