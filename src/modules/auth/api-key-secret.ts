import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'sk_';
const API_KEY_FORMAT = /^sk_[A-Za-z0-9_-]{32,256}$/;
const DISPLAY_PREFIX_LENGTH = 10;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function isApiKeyFormat(value: string): boolean {
  return API_KEY_FORMAT.test(value);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
