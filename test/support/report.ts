/** Prints the figures a test measured, one line a test, for the CI log: `[suite] test: k=v …`. */
export function report(
  suite: string,
  test: string,
  figures: Record<string, number | string | boolean>,
): void {
  const line = Object.entries(figures)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  process.stdout.write(`[${suite}] ${test}: ${line}\n`);
}
