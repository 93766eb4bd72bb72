import { LoadAnswer, LoadCommand, LoadJob, LoadResult } from './load-protocol';
import { cpuTimeMs } from './cpu';
import { Worker } from './worker';

const SLACK_MS = 60_000;

/** Runs one autocannon job in its own process and returns what it measured. */
export async function runLoad(name: string, job: LoadJob): Promise<LoadResult> {
  const worker = Worker.start<LoadCommand, LoadAnswer>(`load (${name})`, 'load-worker.ts');
  try {
    worker.send({ type: 'run', job });
    const timeoutMs = (job.durationS + job.warmupS) * 1000 + SLACK_MS;
    return (await worker.receive('result', timeoutMs)).result;
  } finally {
    await worker.stop();
  }
}

/**
 * The job's connections split over several instances (one load process each, run together);
 * one instance is the job itself. Throughput adds up; of the latencies, the worst instance's.
 */
export async function runLoadSpread(
  name: string,
  job: LoadJob,
  origins: string[],
): Promise<LoadResult> {
  if (origins.length <= 1) {
    return runLoad(name, { ...job, origin: origins[0] ?? job.origin });
  }
  const share = Math.max(1, Math.floor(job.connections / origins.length));
  const results = await Promise.all(
    origins.map((origin, i) =>
      runLoad(`${name} #${i + 1}`, { ...job, origin, connections: share }),
    ),
  );
  const sum = (pick: (r: LoadResult) => number) => results.reduce((t, r) => t + pick(r), 0);
  return {
    rps: sum((r) => r.rps),
    p50_ms: Math.max(...results.map((r) => r.p50_ms)),
    p99_ms: Math.max(...results.map((r) => r.p99_ms)),
    requests: sum((r) => r.requests),
    ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    duration_s: Math.max(...results.map((r) => r.duration_s)),
    started_at: Math.min(...results.map((r) => r.started_at)),
    ended_at: Math.max(...results.map((r) => r.ended_at)),
  };
}

export interface LoadTarget {
  origin: string;
  pid: number;
}

/**
 * As runLoadSpread, with the servers' CPU time per request over the measured run (warm-up run
 * first, apart): steadier than req/s when other work shares the cores.
 */
export async function runLoadWithCpu(
  name: string,
  job: LoadJob,
  targets: LoadTarget[],
): Promise<LoadResult & { cpu_us_per_request: number | null }> {
  const origins = targets.map((target) => target.origin);
  if (job.warmupS > 0) {
    await runLoadSpread(`${name} warm-up`, { ...job, durationS: job.warmupS, warmupS: 0 }, origins);
  }
  const cpu = () => targets.reduce((total, target) => total + cpuTimeMs(target.pid), 0);
  const before = cpu();
  const result = await runLoadSpread(name, { ...job, warmupS: 0 }, origins);
  const used = cpu() - before;
  return {
    ...result,
    cpu_us_per_request: result.requests > 0 ? (used * 1000) / result.requests : null,
  };
}
