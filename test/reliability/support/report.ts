/** Prints the figures a reliability test measured, one line a test, for the CI log. */
export function report(test: string, figures: Record<string, number | string | boolean>): void {
  const line = Object.entries(figures)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  process.stdout.write(`[reliability] ${test}: ${line}\n`);
}
