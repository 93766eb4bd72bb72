import { ChildProcess, fork, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const BENCH_DIR = join(ROOT, 'bench');

const OUTPUT_TAIL_CHARS = 8_000;
const TS_NODE_ARGS = ['-r', 'ts-node/register/transpile-only'];

export interface Managed {
  name: string;
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
  /** The last few kilobytes the process printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills every process the suite started that is still alive; safe in an 'exit' handler. */
export function killAll(): void {
  for (const child of running) {
    if (isAlive(child)) {
      child.kill('SIGKILL');
    }
  }
  running.clear();
}

function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function manage(name: string, child: ChildProcess): Managed {
  if (child.pid === undefined) {
    throw new Error(`could not start ${name}`);
  }
  running.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  return {
    name,
    child,
    pid: child.pid,
    exited,
    output: () => tail,
    stop: async () => {
      if (isAlive(child)) {
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(forced);
      }
    },
  };
}

/** Runs `node <args>` directly, so that the child's pid is the measured process itself. */
export function spawnNode(name: string, args: string[], env: NodeJS.ProcessEnv): Managed {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return manage(name, child);
}

/** `node` arguments that run a TypeScript file of bench/. */
export function benchScriptArgs(script: string): string[] {
  return [...TS_NODE_ARGS, join(BENCH_DIR, script)];
}

/** Runs a TypeScript file of bench/ as its own process, with an IPC channel to this one. */
export function forkBenchScript(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv = {},
): Managed {
  const child = fork(join(BENCH_DIR, script), [], {
    cwd: ROOT,
    execArgv: TS_NODE_ARGS,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return manage(name, child);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `url` until it answers 200, and returns the milliseconds from `startedAt`
 * (a performance.now() value). Fails if the process exits or the deadline passes.
 */
export async function waitForOk(
  url: string,
  server: Managed,
  startedAt: number,
  timeoutMs: number,
): Promise<number> {
  let exited = false;
  void server.exited.then(() => (exited = true));
  const deadline = startedAt + timeoutMs;
  while (performance.now() < deadline && !exited) {
    const ok = await fetch(url).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) {
      return performance.now() - startedAt;
    }
    await sleep(10);
  }
  throw new Error(
    `${server.name} did not answer 200 on ${url} (${exited ? 'exited' : 'timed out'}):\n${server.output()}`,
  );
}
