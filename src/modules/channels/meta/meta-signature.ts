import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Whether `header` (X-Hub-Signature-256) is `sha256=` and the hex HMAC-SHA256 of the exact raw
 * body keyed with the app secret, compared in constant time. False for anything malformed,
 * and always false with an empty secret.
 */
export function metaSignatureValid(
  rawBody: Buffer,
  header: string | undefined,
  appSecret: string,
): boolean {
  if (!Buffer.isBuffer(rawBody) || typeof header !== 'string' || typeof appSecret !== 'string') {
    return false;
  }
  const match = HEADER.exec(header.trim());
  if (match === null || appSecret === '') {
    return false;
  }
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
