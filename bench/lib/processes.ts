import { fork, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../test/support/app-process';
import { manage, ManagedProcess } from '../../test/support/managed-process';

export const BENCH_DIR = join(ROOT, 'bench');

const TS_NODE_ARGS = ['-r', 'ts-node/register/transpile-only'];

/** Runs `node <args>` directly, so that the child's pid is the measured process itself. */
export function spawnNode(name: string, args: string[], env: NodeJS.ProcessEnv): ManagedProcess {
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
): ManagedProcess {
  const child = fork(join(BENCH_DIR, script), [], {
    cwd: ROOT,
    execArgv: TS_NODE_ARGS,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return manage(name, child);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers 200. Fails if the process exits or the deadline passes. */
export async function waitForOk(
  url: string,
  server: ManagedProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline && server.isRunning()) {
    const ok = await fetch(url).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) {
      return;
    }
    await sleep(10);
  }
  throw new Error(
    `${server.name} did not answer 200 on ${url} (${server.isRunning() ? 'timed out' : 'exited'}):\n${server.tail()}`,
  );
}
