import { createHmac } from 'node:crypto';
import { request } from 'node:http';

/** The X-Hub-Signature-256 header Meta sends with `rawBody`. */
export function signMeta(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

const nowSeconds = () => String(Math.floor(Date.now() / 1000));
const randomId = () => Math.random().toString(36).slice(2, 12);

interface WhatsAppSender {
  phoneNumberId: string;
  from: string;
  name?: string;
  id?: string;
  displayPhoneNumber?: string;
}

function whatsappChange(phoneNumberId: string, display: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: display, phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

function whatsappMessage(sender: WhatsAppSender, message: Record<string, unknown>) {
  return whatsappChange(sender.phoneNumberId, sender.displayPhoneNumber ?? '15550783881', {
    contacts: [{ profile: { name: sender.name ?? 'Sheena Nelson' }, wa_id: sender.from }],
    messages: [
      {
        from: sender.from,
        id: sender.id ?? `wamid.${randomId()}`,
        timestamp: nowSeconds(),
        ...message,
      },
    ],
  });
}

/** A customer's WhatsApp text message, as the Cloud API notifies it. */
export function whatsappTextNotification(options: WhatsAppSender & { text: string }) {
  return whatsappMessage(options, { type: 'text', text: { body: options.text } });
}

/** A customer's WhatsApp image (media id, MIME type, optional caption). */
export function whatsappImageNotification(
  options: WhatsAppSender & { mediaId: string; mimeType?: string; caption?: string },
) {
  return whatsappMessage(options, {
    type: 'image',
    image: {
      ...(options.caption === undefined ? {} : { caption: options.caption }),
      mime_type: options.mimeType ?? 'image/jpeg',
      sha256: 'HgVz3wXjPw6b/2hxVPaoZJmnjBlvNlw2lVsT6wLjaYU=',
      id: options.mediaId,
    },
  });
}

/** A delivery status of a message we sent; `failed` with Meta's errors[] shape. */
export function whatsappStatusNotification(options: {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipient?: string;
  phoneNumberId?: string;
  errors?: { code: number; title: string; message?: string; details?: string }[];
}) {
  const status: Record<string, unknown> = {
    id: options.id,
    status: options.status,
    timestamp: nowSeconds(),
    recipient_id: options.recipient ?? '16505551234',
  };
  if (options.status !== 'failed') {
    status.conversation = { id: randomId(), origin: { type: 'service' } };
    status.pricing = { billable: true, pricing_model: 'PMP', category: 'service' };
  }
  if (options.errors) {
    status.errors = options.errors.map((error) => ({
      code: error.code,
      title: error.title,
      message: error.message ?? error.title,
      error_data: { details: error.details ?? error.title },
    }));
  }
  return whatsappChange(options.phoneNumberId ?? '106540352242922', '15550783881', {
    statuses: [status],
  });
}

/** A customer's Messenger (object `page`) or Instagram (object `instagram`) text message. */
export function messengerTextNotification(options: {
  pageId: string;
  senderId: string;
  text: string;
  mid?: string;
  object?: 'page' | 'instagram';
}) {
  const now = Date.now();
  return {
    object: options.object ?? 'page',
    entry: [
      {
        id: options.pageId,
        time: now,
        messaging: [
          {
            sender: { id: options.senderId },
            recipient: { id: options.pageId },
            timestamp: now,
            message: { mid: options.mid ?? `m_${randomId()}`, text: options.text },
          },
        ],
      },
    ],
  };
}

/**
 * POSTs `body` signed with `appSecret` to a channel's webhook, as Meta does, from outside the
 * app's process; the status it answered.
 */
export function postSignedNotification(
  baseUrl: string,
  channelId: string,
  body: unknown,
  appSecret: string,
): Promise<number> {
  const raw = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/api/v1/channels/${channelId}/webhook`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Hub-Signature-256': signMeta(raw, appSecret),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(raw);
  });
}
