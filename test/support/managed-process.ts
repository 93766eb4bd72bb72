import { ChildProcess } from 'node:child_process';

const TAIL_CHARS = 20_000;
const STOP_GRACE_MS = 15_000;

/** A child process of the test run or bench: what it printed, its exit, and a way to stop it. */
export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Resolves with the exit code (null after a signal) once the process and its output ended. */
  exited: Promise<number | null>;
  isRunning(): boolean;
  /** Everything it printed so far. */
  output(): { stdout: string; stderr: string };
  /** The end of what it printed, both streams as they came, for error messages. */
  tail(): string;
  /** Sends `signal`, then SIGKILL if it is still running after a grace period; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();

function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Kills every process started through `manage` that still runs; safe in an 'exit' handler. */
export function killStartedProcesses(): void {
  for (const child of running) {
    if (isAlive(child)) {
      child.kill('SIGKILL');
    }
  }
  running.clear();
}

/**
 * Keeps track of a spawned child whose stdout and stderr are pipes. `onClose` gets everything it
 * printed once it has exited.
 */
export function manage(
  name: string,
  child: ChildProcess,
  onClose?: (stdout: string, stderr: string) => void,
): ManagedProcess {
  if (child.pid === undefined) {
    throw new Error(`could not start ${name}`);
  }
  running.add(child);
  let stdout = '';
  let stderr = '';
  let tail = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      running.delete(child);
      onClose?.(stdout, stderr);
      resolve(code);
    }),
  );
  return {
    name,
    child,
    pid: child.pid,
    exited,
    isRunning: () => isAlive(child),
    output: () => ({ stdout, stderr }),
    tail: () => tail,
    stop: async (signal = 'SIGTERM') => {
      if (!isAlive(child)) {
        return exited;
      }
      child.kill(signal);
      const forced = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      const code = await exited;
      clearTimeout(forced);
      return code;
    },
  };
}
