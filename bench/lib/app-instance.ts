import { join } from 'node:path';
import { AppProcess, startApp as startAppProcess } from '../../test/support/app-process';
import { MEMORY_REPORTER, MemorySample, sampleMemory } from './memory';

const READY_TIMEOUT_MS = 60_000;
/** Fine enough for the start-up figure (spawn → first 200 from /readyz). */
const READY_POLL_MS = 10;

export interface AppInstance {
  name: string;
  origin: string;
  pid: number;
  /** Process spawn → first 200 from /readyz. */
  startupMs: number;
  memory(): Promise<MemorySample>;
  stop(): Promise<void>;
}

/**
 * `BENCH_CPU_PROFILE=<dir>` has every instance write a V8 CPU profile of its whole life there when
 * it stops (`node --cpu-prof`); `npm run bench:profile -- <file>` sums one up.
 */
function cpuProfileArgs(name: string): string[] {
  const dir = process.env.BENCH_CPU_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

/**
 * Starts the built application (dist/main.js) in production mode as its own `node` process, with
 * the memory reporter preloaded, and waits until /readyz answers 200.
 */
export async function startApp(
  name: string,
  env: Record<string, string>,
  workDir: string,
): Promise<AppInstance> {
  const memoryFile = join(workDir, `${name}-memory.json`);
  const app: AppProcess = await startAppProcess(
    {
      NODE_OPTIONS: `--require ${MEMORY_REPORTER}`,
      BENCH_MEMORY_FILE: memoryFile,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // The limiter still counts every request, but never refuses one during the bench.
      RATE_LIMIT_MAX: '100000000',
      STREAM_MAX_PER_SUBJECT: '1000000',
      ...env,
    },
    {
      name,
      nodeArgs: ['--expose-gc', ...cpuProfileArgs(name)],
      readyTimeoutMs: READY_TIMEOUT_MS,
      readyPollMs: READY_POLL_MS,
    },
  );
  return {
    name,
    origin: app.url,
    pid: app.pid,
    startupMs: app.startupMs,
    memory: () => sampleMemory(app.pid, memoryFile),
    stop: async () => {
      await app.stop();
    },
  };
}
