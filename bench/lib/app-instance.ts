import { join } from 'node:path';
import { MEMORY_REPORTER, MemorySample, sampleMemory } from './memory';
import { freePort, Managed, spawnNode, waitForOk } from './processes';

export const API_PREFIX = '/api/v1/console';
const READY_TIMEOUT_MS = 60_000;

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
 * Starts the built application (dist/main.js) in production mode as its own `node` process, with
 * the memory reporter preloaded, and waits until /readyz answers 200.
 */
export async function startApp(
  name: string,
  env: Record<string, string>,
  workDir: string,
): Promise<AppInstance> {
  const port = await freePort();
  const memoryFile = join(workDir, `${name}-memory.json`);
  const startedAt = performance.now();
  const server: Managed = spawnNode(name, ['--expose-gc', 'dist/main.js'], {
    NODE_OPTIONS: `--require ${MEMORY_REPORTER}`,
    BENCH_MEMORY_FILE: memoryFile,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The limiter still counts every request, but never refuses one during the bench.
    RATE_LIMIT_MAX: '100000000',
    STREAM_MAX_PER_SUBJECT: '1000000',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...env,
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    const startupMs = await waitForOk(`${origin}/readyz`, server, startedAt, READY_TIMEOUT_MS);
    return {
      name,
      origin,
      pid: server.pid,
      startupMs,
      memory: () => sampleMemory(server.pid, memoryFile),
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
