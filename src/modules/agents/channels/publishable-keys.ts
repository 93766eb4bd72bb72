import { createHash, randomBytes } from 'node:crypto';

const PUBLISHABLE_KEY = /^pk_[A-Za-z0-9_-]{43}$/;

/** A web chat's publishable key: public (pages carry it), it names a channel and nothing more. */
export function generatePublishableKey(): string {
  return `pk_${randomBytes(32).toString('base64url')}`;
}

export function isPublishableKeyFormat(value: string): boolean {
  return PUBLISHABLE_KEY.test(value);
}

/** Keys are stored and looked up by hash, as API keys are. */
export function hashPublishableKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
