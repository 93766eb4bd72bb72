import { randomBytes } from 'node:crypto';
import { Entry, RunResult, runToEnd } from './app-process';

type CliEntry = Extract<Entry, 'dist/cli.js'>;

export interface CreatedKey {
  id: string;
  key: string;
}

/** A key of the form the application accepts, e.g. for CONSOLE_BOOTSTRAP_KEY. */
export function randomApiKey(): string {
  return `sk_test_${randomBytes(24).toString('base64url')}`;
}

/** Runs the admin CLI against the database and Redis of `env`, as an operator would. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  entry: CliEntry = 'dist/cli.js',
): Promise<RunResult> {
  return runToEnd(entry, args, env);
}

/** Runs the admin CLI, failing unless it exits 0; resolves with what it printed. */
async function cliOutput(
  args: string[],
  env: Record<string, string>,
  entry?: CliEntry,
): Promise<string> {
  const result = await runCli(args, env, entry);
  if (result.code !== 0) {
    throw new Error(`cli ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  }
  return result.stdout;
}

export async function createTeamWithCli(
  env: Record<string, string>,
  name: string,
  entry?: CliEntry,
): Promise<{ id: string; name: string }> {
  return JSON.parse(await cliOutput(['teams', 'create', name, '--json'], env, entry));
}

/** A new key of `team` with `scopes` (comma-separated), e.g. `extra: ['--expires-at', …]`. */
export async function createKeyWithCli(
  env: Record<string, string>,
  team: string,
  scopes: string,
  extra: string[] = [],
  entry?: CliEntry,
): Promise<CreatedKey> {
  const args = ['keys', 'create', '--team', team, '--scopes', scopes, '--json', ...extra];
  return JSON.parse(await cliOutput(args, env, entry));
}

export async function revokeKeyWithCli(
  env: Record<string, string>,
  id: string,
  entry?: CliEntry,
): Promise<void> {
  await cliOutput(['keys', 'revoke', id], env, entry);
}
