import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 8;

/** A short code people can type: no 0/O or 1/I/L to confuse. */
export function newTestChannelCode(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

export function testStartMessage(code: string): string {
  return `TEST-${code}`;
}
