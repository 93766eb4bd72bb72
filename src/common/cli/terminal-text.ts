/**
 * Characters a terminal acts on rather than shows: C0 controls (ESC, BEL, CR, LF, TAB…), DEL and
 * the C1 controls (0x9B is CSI on many terminals), the line and paragraph separators, and the
 * bidirectional overrides that make text read in another order than it is stored.
 */
const TERMINAL_CONTROLS = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(char: string): string {
  const code = char.charCodeAt(0);
  return (
    NAMED[char] ??
    (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`)
  );
}

/** `text` with every terminal control shown as an escape (`\x1b`, `\r`, `\u202e`): one inert line. */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, escapeControl);
}

/**
 * `value` as JSON whose text holds no terminal control: JSON.stringify escapes C0 but leaves C1,
 * the separators and the bidi overrides raw. Outside strings JSON is plain ASCII, so each becomes a
 * `\uXXXX` escape that parses back to the same value.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    TERMINAL_CONTROLS,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
