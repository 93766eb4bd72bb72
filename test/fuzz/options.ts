export interface FuzzOptions {
  requests: number;
  seed: number;
  /** A PostgreSQL server to create the run's own database on; SQLite when absent. */
  postgresUrl?: string;
  concurrency: number;
}

const DEFAULT_REQUESTS = 20_000;
const LONG_REQUESTS = 200_000;

function valueOf(args: string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  return args.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

function integer(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new Error(`--${name} must be an integer, got ${text}`);
  }
  return value;
}

function positiveInteger(text: string, name: string): number {
  const value = integer(text, name);
  if (value < 1) {
    throw new Error(`--${name} must be a positive integer, got ${text}`);
  }
  return value;
}

/** `--requests=N`, `--long`, `--seed=S`, `--concurrency=C`, `--database-url=postgres://…`. */
export function parseOptions(args: string[], env: NodeJS.ProcessEnv): FuzzOptions {
  const known = ['--long', '--requests=', '--seed=', '--concurrency=', '--database-url='];
  const unknown = args.filter((arg) => !known.some((option) => arg.startsWith(option)));
  if (unknown.length > 0) {
    throw new Error(`unknown option ${unknown.join(' ')}; known: ${known.join(' ')}`);
  }
  const requests = valueOf(args, 'requests');
  const seed = valueOf(args, 'seed');
  const concurrency = valueOf(args, 'concurrency');
  const postgresUrl = valueOf(args, 'database-url') ?? env.FUZZ_DATABASE_URL;
  if (postgresUrl !== undefined && !/^postgres(ql)?:\/\//.test(postgresUrl)) {
    throw new Error('--database-url must be a postgres:// URL (SQLite is the default)');
  }
  return {
    requests: requests
      ? positiveInteger(requests, 'requests')
      : args.includes('--long')
        ? LONG_REQUESTS
        : DEFAULT_REQUESTS,
    seed: seed ? integer(seed, 'seed') : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0,
    postgresUrl: postgresUrl || undefined,
    concurrency: concurrency ? positiveInteger(concurrency, 'concurrency') : 12,
  };
}
