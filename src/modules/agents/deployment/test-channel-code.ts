import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 8;

/** A short code people can type: no 0/O or 1/I/L to confuse. */
export function newTestChannelCode(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

const CODE_TEXT = new RegExp(`^(?:TEST-)?([${ALPHABET}]{${LENGTH}})$`);

/**
 * The code a message carries when its whole text (trimmed, any case) is a test code or its start
 * message (`TEST-<code>`, what the test links prefill); null otherwise.
 */
export function testChannelCodeIn(text: string): string | null {
  return CODE_TEXT.exec(text.trim().toUpperCase())?.[1] ?? null;
}

export function testStartMessage(code: string): string {
  return `TEST-${code}`;
}
