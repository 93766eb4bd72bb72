import { rmSync } from 'node:fs';
import { killStartedProcesses } from '../../test/support/managed-process';

type Task = () => Promise<void> | void;

const tasks: { label: string; run: Task }[] = [];
const directories = new Set<string>();

/**
 * Registers something to undo when the suite ends (last registered, first undone), or earlier
 * through the function returned, which runs it at once and only once.
 */
export function onCleanup(label: string, run: Task): () => Promise<void> {
  const task = { label, run };
  tasks.push(task);
  return async () => {
    const index = tasks.indexOf(task);
    if (index !== -1) {
      tasks.splice(index, 1);
      await task.run();
    }
  };
}

/** A temporary directory removed when the suite ends, even on an abrupt exit. */
export function removeAtExit(directory: string): void {
  directories.add(directory);
}

function removeDirectories(): void {
  for (const directory of directories) {
    rmSync(directory, { recursive: true, force: true });
  }
  directories.clear();
}

export async function runCleanup(): Promise<void> {
  killStartedProcesses();
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    try {
      await task.run();
    } catch (error) {
      process.stderr.write(`cleanup "${task.label}" failed: ${String(error)}\n`);
    }
  }
  removeDirectories();
}

/**
 * Whatever happens, no child process outlives the suite: the 'exit' handler can only do
 * synchronous work, so a signal first runs the full (asynchronous) cleanup, then exits.
 */
export function installExitHandlers(): void {
  process.on('exit', () => {
    killStartedProcesses();
    removeDirectories();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: cleaning up\n`);
      void runCleanup().finally(() => process.exit(130));
    });
  }
}
