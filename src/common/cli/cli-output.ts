import { terminalSafe, terminalSafeJson } from './terminal-text';

/**
 * CLI results go to stdout, problems to stderr with a failing exit code. Text here may come from a
 * tenant (a team's request, a name), so every line is written terminal-safe: each argument is one
 * line, and a control character inside it is shown as an escape, never acted on.
 */
export const cliOutput = {
  print(...lines: string[]): void {
    process.stdout.write(lines.map((line) => `${terminalSafe(line)}\n`).join(''));
  },
  json(value: unknown): void {
    process.stdout.write(`${terminalSafeJson(value)}\n`);
  },
  /** Columns padded to their widest cell, under a header. */
  table(header: string[], cells: string[][]): void {
    const rows = cells.map((row) => row.map(terminalSafe));
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => row[column].length)),
    );
    for (const row of [header, ...rows]) {
      const cells = row.map((cell, column) =>
        column === row.length - 1 ? cell : cell.padEnd(widths[column]),
      );
      process.stdout.write(`${cells.join('  ')}\n`);
    }
  },
  /** Where the command worked, on stderr so that --json output stays JSON. */
  note(line: string): void {
    process.stderr.write(`${terminalSafe(line)}\n`);
  },
  fail(message: string): void {
    process.stderr.write(`error: ${terminalSafe(message)}\n`);
    process.exitCode = 1;
  },
};

const DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `24h`, `7d` (a bare number is seconds), in milliseconds; null when unreadable. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) {
    return null;
  }
  return Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS];
}
