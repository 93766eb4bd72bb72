import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh IV each time', () => {
    const a = box.seal('sk_live_secret');
    const b = box.seal('sk_live_secret');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk_live_secret');
    expect(box.open(a)).toBe('sk_live_secret');
  });

  it('refuses tampered ciphertext and another key', () => {
    const sealed = box.seal('value');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() =>
      box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.')),
    ).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('seals JSON objects, and nothing for an empty one', () => {
    expect(box.sealJson({})).toBeNull();
    expect(box.openJson(box.sealJson({ token: 't' }))).toEqual({ token: 't' });
    expect(box.openJson(null)).toEqual({});
  });
});
