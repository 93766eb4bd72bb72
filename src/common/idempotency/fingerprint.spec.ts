import { canonicalJson, requestFingerprint } from './fingerprint';

describe('request fingerprints', () => {
  it('ignore the order of object keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { e: 2, f: 1 }] }, b: 1 }),
    );
  });

  it('tell apart method, path and body', () => {
    const base = requestFingerprint('POST', '/a', { x: 1 });
    expect(requestFingerprint('PATCH', '/a', { x: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/b', { x: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/a', { x: 2 })).not.toBe(base);
    expect(requestFingerprint('POST', '/a', { x: 1 })).toBe(base);
  });

  it('keep array order significant', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
