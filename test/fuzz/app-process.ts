import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/processes';

const ROOT = join(__dirname, '..', '..');
const READY_TIMEOUT_MS = 60_000;
const OUTPUT_TAIL_CHARS = 20_000;
const LOGGED_ERROR = /"level":(50|60)/;
const MAX_ERROR_LINES = 20;
const runFile = promisify(execFile);

export interface AppProcess {
  origin: string;
  /** Lines the server logged at level error or fatal (the first few). */
  errorLines: string[];
  /** What the server printed (the tail), for error messages and 5xx hunting. */
  output(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();

/** Kills every server this process started that still runs; safe in an 'exit' handler. */
export function killStartedApps(): void {
  for (const child of started) {
    child.kill('SIGKILL');
  }
}

export function newApiKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...env };
}

/** Starts the built server (dist/main.js) as production runs it, and waits for /readyz. */
export async function startApp(env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: baseEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let tail = '';
  const errorLines: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-OUTPUT_TAIL_CHARS);
    for (const line of text.split('\n').filter((line) => LOGGED_ERROR.test(line))) {
      if (errorLines.length < MAX_ERROR_LINES) {
        errorLines.push(line.slice(0, 2_000));
      }
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      started.delete(child);
      resolve();
    }),
  );
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!exited()) {
    const ready = await fetch(`${origin}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) {
      break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (exited()) {
    throw new Error(`the server did not start:\n${tail}`);
  }
  return {
    origin,
    errorLines,
    output: () => tail,
    exited,
    stop: async () => {
      if (!exited()) {
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exit;
        clearTimeout(forced);
      }
    },
  };
}

/** Runs the built admin CLI (dist/cli.js) and returns what it printed. */
export async function adminCli(env: Record<string, string>, args: string[]): Promise<string> {
  const { stdout } = await runFile(process.execPath, ['dist/cli.js', ...args], {
    cwd: ROOT,
    env: baseEnv(env),
    timeout: 30_000,
  });
  return stdout;
}
