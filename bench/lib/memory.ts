import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, sleep } from './processes';

/** The preload that makes a server report its own heap; see report-memory.js. */
export const MEMORY_REPORTER = join(BENCH_DIR, 'report-memory.js');

export interface MemorySample {
  /** VmRSS of the process, as the kernel counts it. */
  rss_bytes: number;
  heap_used_bytes: number;
  heap_total_bytes: number;
  external_bytes: number;
}

/** The resident set size of a process, from /proc/<pid>/status. */
export function readRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) {
    throw new Error(`no VmRSS for process ${pid}`);
  }
  return Number(match[1]) * 1024;
}

/**
 * Asks a server started with the memory reporter for its process.memoryUsage() (taken after a
 * full collection) and reads its RSS right after.
 */
export async function sampleMemory(pid: number, file: string): Promise<MemorySample> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      const usage = JSON.parse(readFileSync(file, 'utf8')) as NodeJS.MemoryUsage;
      return {
        rss_bytes: readRss(pid),
        heap_used_bytes: usage.heapUsed,
        heap_total_bytes: usage.heapTotal,
        external_bytes: usage.external,
      };
    } catch {
      await sleep(20);
    }
  }
  throw new Error(`process ${pid} did not report its memory (is ${MEMORY_REPORTER} preloaded?)`);
}

export const MIB = 1024 * 1024;
