import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { recordProcessOutput, recordSecretSettings } from './log-capture';

const ROOT = join(__dirname, '..', '..');
const TS_NODE = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'];
const RUN_TIMEOUT_MS = 30_000;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
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

interface SourceProcess {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

/**
 * Runs a TypeScript entry point of src/ with a clean environment, as `npm run` would; what it
 * printed joins the run's secrets scan when it exits.
 */
function spawnSource(entry: string, args: string[], env: Record<string, string>): SourceProcess {
  recordSecretSettings(env);
  const child = spawn(process.execPath, [...TS_NODE, join(ROOT, 'src', entry), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      recordProcessOutput(entry.replace(/\.ts$/, ''), stdout, stderr);
      resolve(code);
    }),
  );
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function runToEnd(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<RunResult> {
  const run = spawnSource(entry, args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, ...run.output() };
}

/** Runs the admin CLI from source, as `npm run cli` does, and waits for it to finish. */
export function runCli(args: string[], env: Record<string, string>): Promise<RunResult> {
  return runToEnd('cli.ts', args, env);
}

/** Starts the server expecting it to refuse to start; resolves with what it printed. */
export function runServerExpectingFailure(env: Record<string, string>): Promise<RunResult> {
  return runToEnd('main.ts', [], env);
}

export interface ServerProcess extends SourceProcess {
  url: string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts src/main.ts as its own process and waits until it answers /healthz. */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<ServerProcess> {
  const port = await freePort();
  const run = spawnSource('main.ts', [], { PORT: String(port), HOST: '127.0.0.1', ...env });
  const url = `http://127.0.0.1:${port}`;
  let exitCode: number | null | undefined;
  void run.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  let ready = false;
  while (!ready && Date.now() < deadline && exitCode === undefined) {
    ready = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (!ready) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (!ready) {
    run.child.kill('SIGKILL');
    const { stdout, stderr } = run.output();
    throw new Error(`server did not start (exit ${exitCode}):\n${stdout}\n${stderr}`);
  }
  return {
    ...run,
    url,
    stop: (signal = 'SIGTERM') => {
      run.child.kill(signal);
      return run.exited;
    },
  };
}
