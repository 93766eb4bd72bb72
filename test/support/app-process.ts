import { spawn } from 'node:child_process';
import { basename, extname, join } from 'node:path';
import { freePort } from './free-port';
import { CAPTURE_DIR_VARIABLE, recordProcessOutput, recordSecretSettings } from './log-capture';
import { manage, ManagedProcess } from './managed-process';
import { sleep } from './wait';

export const ROOT = join(__dirname, '..', '..');

/**
 * What runs: the built files, as production runs them (built by `npm run build`, or by the global
 * setup of a jest run when older than the sources).
 */
export type Entry = 'dist/main.js' | 'dist/cli.js' | 'dist/database/migrations-cli.js';
const RUN_TIMEOUT_MS = 30_000;
const LOGGED_ERROR = /"level":(50|60)/;
const MAX_LOGGED_ERRORS = 20;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface AppProcess extends ManagedProcess {
  url: string;
  /** Spawn → first 200 from /readyz. */
  startupMs: number;
  /** The first lines it logged at level error or fatal. */
  loggedErrors(): string[];
}

export interface AppOptions {
  /** Names the process in error messages and its captured output. */
  name?: string;
  entry?: Extract<Entry, 'dist/main.js'>;
  /** Options of `node` itself, e.g. --expose-gc. */
  nodeArgs?: string[];
  /** The working directory (where `.env` is read from); the repository by default. */
  cwd?: string;
  readyTimeoutMs?: number;
  readyPollMs?: number;
}

/** Inside a jest run: what the process printed joins the run's secrets scan. */
function capturing(): boolean {
  return Boolean(process.env[CAPTURE_DIR_VARIABLE]);
}

/** Starts `entry` as its own process with a clean environment plus `env`. */
function launch(
  name: string,
  entry: Entry,
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
  cwd = ROOT,
): ManagedProcess {
  if (capturing()) {
    recordSecretSettings(env);
  }
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(ROOT, entry), ...args],
    {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const captureName = `${basename(entry, extname(entry))}-${name.replace(/\W+/g, '-')}`;
  return manage(
    name,
    child,
    capturing() ? (stdout, stderr) => recordProcessOutput(captureName, stdout, stderr) : undefined,
  );
}

/** Runs the CLI or a server expected to stop by itself; resolves with what it printed. */
export async function runToEnd(
  entry: Entry,
  args: string[],
  env: Record<string, string>,
): Promise<RunResult> {
  const run = launch(basename(entry), entry, args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, ...run.output() };
}

/**
 * Starts the application as its own process on a free port of 127.0.0.1 and waits until /readyz
 * answers 200.
 */
export async function startApp(
  env: Record<string, string>,
  options: AppOptions = {},
): Promise<AppProcess> {
  const {
    name = 'app',
    entry = 'dist/main.js',
    readyTimeoutMs = 20_000,
    readyPollMs = 100,
  } = options;
  const port = await freePort();
  const startedAt = performance.now();
  const app = launch(
    name,
    entry,
    [],
    { HOST: '127.0.0.1', PORT: String(port), ...env },
    options.nodeArgs,
    options.cwd,
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = startedAt + readyTimeoutMs;
  let ready = false;
  while (!ready && app.isRunning() && performance.now() < deadline) {
    ready = await fetch(`${url}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (!ready) {
      await sleep(readyPollMs);
    }
  }
  if (!ready) {
    await app.stop('SIGKILL');
    throw new Error(`${name} did not become ready (exit ${app.child.exitCode}):\n${app.tail()}`);
  }
  return {
    ...app,
    url,
    startupMs: performance.now() - startedAt,
    loggedErrors: () =>
      app
        .output()
        .stdout.split('\n')
        .filter((line) => LOGGED_ERROR.test(line))
        .slice(0, MAX_LOGGED_ERRORS)
        .map((line) => line.slice(0, 2_000)),
  };
}
