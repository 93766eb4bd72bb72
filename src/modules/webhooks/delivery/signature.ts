import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * `Console-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the whole
 * secret string (prefix included), as Stripe does: the timestamp inside the signed text lets a
 * receiver refuse old replays.
 */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
