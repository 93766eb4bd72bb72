import { terminalSafe, terminalSafeJson } from './terminal-text';

describe('terminal-safe text', () => {
  it('shows C0, DEL, C1, separators and bidi overrides as escapes, and leaves other text alone', () => {
    expect(terminalSafe('a\x1b[2Jb\x07\r\n\t\x7f\u009b\u2028\u202e\u2066z')).toBe(
      'a\\x1b[2Jb\\x07\\r\\n\\t\\x7f\\x9b\\u2028\\u202e\\u2066z',
    );
    expect(terminalSafe('Zürich — 東京 👩‍👩‍👧')).toBe('Zürich — 東京 👩‍👩‍👧');
  });

  it('writes JSON that parses back to the same value, with no terminal control in its text', () => {
    const value = { name: 'x\u009b31m\u202e\x1b]52;c;\x07\u2029', plain: 'é' };
    const json = terminalSafeJson(value);
    expect(json).not.toMatch(/[\p{Cc}\u2028\u2029\u202a-\u202e]/u);
    expect(JSON.parse(json)).toEqual(value);
  });
});
