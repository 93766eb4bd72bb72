import { field, id, list, truncate } from './bounded-json';

/** WhatsApp's limit on a text message body, and Messenger's and Instagram's. */
export const WHATSAPP_TEXT_LIMIT = 4096;
export const MESSENGER_TEXT_LIMIT = 2000;
const MAX_FAILURE_MESSAGE = 500;
const ELLIPSIS = '…';

/**
 * One send API call: POST `url` with `body` as JSON, the token as `Authorization: Bearer`
 * (added by the caller: it is never part of this value). `truncated` tells that the text was
 * longer than the channel takes and was cut to its limit, ending with "…": one outbound message
 * stays one provider message, with one id and one delivery status, and a retry resends exactly
 * the same request.
 */
export interface SendRequest {
  url: string;
  body: Record<string, unknown>;
  truncated: boolean;
}

/** `POST {base}/{phone_number_id}/messages`; null when `text` is blank (WhatsApp refuses it). */
export function whatsappTextRequest(
  baseUrl: string,
  phoneNumberId: string,
  to: string,
  text: string,
): SendRequest | null {
  const fitted = fit(text, WHATSAPP_TEXT_LIMIT);
  if (fitted === null) {
    return null;
  }
  return {
    url: `${trimSlash(baseUrl)}/${encodeURIComponent(phoneNumberId)}/messages`,
    body: {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'text',
      text: { preview_url: false, body: fitted.text },
    },
    truncated: fitted.truncated,
  };
}

/** `POST {base}/me/messages` (Messenger and Instagram alike); null when `text` is blank. */
export function messengerTextRequest(
  baseUrl: string,
  recipientId: string,
  text: string,
): SendRequest | null {
  const fitted = fit(text, MESSENGER_TEXT_LIMIT);
  if (fitted === null) {
    return null;
  }
  return {
    url: `${trimSlash(baseUrl)}/me/messages`,
    body: {
      recipient: { id: recipientId },
      messaging_type: 'RESPONSE',
      message: { text: fitted.text },
    },
    truncated: fitted.truncated,
  };
}

function trimSlash(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

function fit(text: string, limit: number): { text: string; truncated: boolean } | null {
  if (text.trim() === '') {
    return null;
  }
  if (text.length <= limit) {
    return { text, truncated: false };
  }
  return { text: truncate(text, limit - ELLIPSIS.length).trimEnd() + ELLIPSIS, truncated: true };
}

/** The provider's id of the sent message: WhatsApp's `messages[0].id`, Messenger's `message_id`. */
export function parseSendSuccess(body: unknown): string | null {
  return id(field(list(body, 'messages')[0], 'id')) ?? id(field(body, 'message_id'));
}

export interface SendFailure {
  retryable: boolean;
  message: string;
  code: number | null;
}

/**
 * Graph's throttling codes, which come with HTTP 400: 4 (application), 17 (user), 32 (page),
 * 613 (calls within a time), 80001/80002/80006/80007/80008 (business use case: Pages,
 * Instagram, Messenger, WhatsApp messaging, WhatsApp management), 130429 (Cloud API
 * throughput), 131056 (too many messages to one recipient).
 */
const THROTTLING_CODES = new Set([
  4, 17, 32, 613, 80001, 80002, 80006, 80007, 80008, 130429, 131056,
]);

/** Messenger's and Instagram's "outside the allowed window" subcodes of error 10. */
const MESSENGER_WINDOW_SUBCODES = new Set([2018278, 2534022]);

/**
 * Whether a failed send may be tried again, and what to tell: retryable on a network error or
 * timeout (`httpStatus` null), 408, 429, 5xx and Graph's throttling codes; any other 4xx means
 * the request itself is wrong. The message is Graph's (`error.message`, `error_user_msg`,
 * `error_data.details`), with the known cases said plainly, at most 500 characters; anything
 * shaped like an access token, and each of `secrets`, is masked out of it.
 */
export function classifySendFailure(
  httpStatus: number | null,
  body: unknown,
  secrets: readonly string[] = [],
): SendFailure {
  const error = field(body, 'error');
  const rawCode = field(error, 'code');
  const code = typeof rawCode === 'number' && Number.isSafeInteger(rawCode) ? rawCode : null;
  const retryable =
    httpStatus === null ||
    httpStatus === 408 ||
    httpStatus === 429 ||
    httpStatus >= 500 ||
    (code !== null && THROTTLING_CODES.has(code));
  const message = [
    explanation(httpStatus, code, field(error, 'error_subcode')),
    graphMessage(error),
  ]
    .filter((part) => part !== '')
    .join(': ');
  return { retryable, code, message: redact(message || statusText(httpStatus), secrets) };
}

function explanation(httpStatus: number | null, code: number | null, subcode: unknown): string {
  if (code === 131047) {
    return "outside WhatsApp's 24-hour customer service window (the customer has not written for over 24 hours; only a message template can be sent)";
  }
  if (code === 10 && MESSENGER_WINDOW_SUBCODES.has(subcode as number)) {
    return 'outside the 24-hour messaging window (the customer has not written for over 24 hours)';
  }
  if (code === 190) {
    return 'the access token is invalid or expired: connect the channel again';
  }
  if (code !== null && THROTTLING_CODES.has(code)) {
    return `rate limited by Meta (code ${code})`;
  }
  return httpStatus === null ? statusText(null) : '';
}

function statusText(httpStatus: number | null): string {
  return httpStatus === null
    ? 'no answer from Meta (network error or timeout)'
    : `HTTP ${httpStatus}`;
}

/** "message: user message: details (code 100)". */
function graphMessage(error: unknown): string {
  const parts: string[] = [];
  for (const value of [
    field(error, 'message'),
    field(error, 'error_user_msg'),
    field(field(error, 'error_data'), 'details'),
  ]) {
    if (typeof value === 'string' && value.trim() !== '' && !parts.includes(value.trim())) {
      parts.push(truncate(value.trim(), MAX_FAILURE_MESSAGE));
    }
  }
  const code = field(error, 'code');
  const codeText = typeof code === 'number' && Number.isSafeInteger(code) ? ` (code ${code})` : '';
  return parts.length === 0 ? '' : parts.join(': ') + codeText;
}

/** Meta's tokens start with EAA; `access_token=` may appear in a quoted URL. */
const TOKEN_SHAPES = [/EAA[A-Za-z0-9]{20,}/g, /(access_token=)[^&\s"']+/gi];

function redact(message: string, secrets: readonly string[]): string {
  let safe = truncate(message, MAX_FAILURE_MESSAGE * 4);
  for (const secret of secrets) {
    if (secret.length >= 4) {
      safe = safe.split(secret).join('[redacted]');
    }
  }
  for (const shape of TOKEN_SHAPES) {
    safe = safe.replace(shape, (match, prefix) =>
      typeof prefix === 'string' ? `${prefix}[redacted]` : '[redacted]',
    );
  }
  return truncate(safe.replace(/\p{Cc}+/gu, ' '), MAX_FAILURE_MESSAGE);
}
