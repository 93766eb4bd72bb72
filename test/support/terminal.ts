import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './app-process';
import { CAPTURE_DIR_VARIABLE, recordProcessOutput } from './log-capture';
import { sleep } from './wait';

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Starts the built server with a terminal as stdout (util-linux `script` gives it a
 * pseudo-terminal), waits until `${url}/readyz` answers 200, stops it with SIGTERM and resolves
 * with everything it wrote to the terminal.
 */
export async function runInTerminal(
  env: Record<string, string>,
  url: string,
): Promise<{ output: string }> {
  const command = [process.execPath, join(ROOT, 'dist/main.js')].map(quote).join(' ');
  const child = spawn('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...env,
    },
    // A process group of its own, so that the server inside the terminal is stopped with it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let ready = false;
    while (!ready && child.exitCode === null && Date.now() < deadline) {
      ready = await fetch(`${url}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (!ready) {
        await sleep(100);
      }
    }
    if (!ready) {
      throw new Error(`the server in a terminal did not become ready:\n${output.slice(-5_000)}`);
    }
    signal('SIGTERM');
    const forced = setTimeout(() => signal('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(forced);
  } finally {
    signal('SIGKILL');
    if (process.env[CAPTURE_DIR_VARIABLE]) {
      recordProcessOutput('terminal', output.replace(/\r/g, ''), '');
    }
  }
  return { output };
}
