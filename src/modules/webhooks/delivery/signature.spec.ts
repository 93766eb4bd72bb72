import { createHmac } from 'node:crypto';
import { newWebhookSecret, signatureHeader } from './signature';

describe('webhook signature', () => {
  it('is the hex HMAC-SHA256 of "t.body" keyed with the whole secret', () => {
    const body = '{"id":"evt_1","type":"ping"}';
    const expected = createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader('whsec_abc', body, 1700000000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('changes with the secret, the body and the time', () => {
    const base = signatureHeader('whsec_a', 'x', 1);
    expect(signatureHeader('whsec_b', 'x', 1)).not.toBe(base);
    expect(signatureHeader('whsec_a', 'y', 1)).not.toBe(base);
    expect(signatureHeader('whsec_a', 'x', 2)).not.toBe(base);
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
