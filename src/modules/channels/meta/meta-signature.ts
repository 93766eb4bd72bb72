import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** Whether two secrets (or digests) are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string | Buffer, b: string | Buffer): boolean {
  const left = typeof a === 'string' ? Buffer.from(a) : a;
  const right = typeof b === 'string' ? Buffer.from(b) : b;
  return left.length === right.length && timingSafeEqual(left, right);
}

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
  return sameSecret(Buffer.from(match[1], 'hex'), expected);
}
