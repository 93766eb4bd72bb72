/** A reason the process cannot start, told to the operator as it is (no stack). */
export class StartupError extends Error {}

const VERBOSE_LEVELS = new Set(['debug', 'trace']);

/**
 * Says why the process could not start and exits 1: a StartupError as it is, anything else as one
 * line (its stack follows only at LOG_LEVEL debug or trace).
 */
export function reportStartupFailure(error: unknown): never {
  if (error instanceof StartupError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    const line = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`Could not start: ${line.split('\n')[0]}\n`);
    if (error instanceof Error && VERBOSE_LEVELS.has(process.env.LOG_LEVEL ?? '')) {
      process.stderr.write(`${error.stack}\n`);
    }
  }
  process.exit(1);
}
