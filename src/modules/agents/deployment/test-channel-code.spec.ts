import { newTestChannelCode, testChannelCodeIn, testStartMessage } from './test-channel-code';

describe('testChannelCodeIn', () => {
  const code = newTestChannelCode();

  it('reads a code, or its start message, trimmed and in any case', () => {
    expect(testChannelCodeIn(code)).toBe(code);
    expect(testChannelCodeIn(`  ${testStartMessage(code).toLowerCase()}\n`)).toBe(code);
  });

  it('reads nothing else', () => {
    for (const text of ['', 'hello', `${code} please`, `TEST-${code}X`, 'TEST-', 'K7P2QX9O']) {
      expect(testChannelCodeIn(text)).toBeNull();
    }
  });
});
