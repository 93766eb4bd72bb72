const started = performance.now();

/** Progress for the person watching, on stderr, so that stdout keeps only the results. */
export function progress(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
}
