import { LoadAnswer, LoadCommand, LoadJob, LoadResult } from './load-protocol';
import { cpuTimeMs } from './cpu';
import { Worker } from './worker';

const SLACK_MS = 60_000;

type LoadWorker = Worker<LoadCommand, LoadAnswer>;

function startWorker(name: string): LoadWorker {
  return Worker.start<LoadCommand, LoadAnswer>(`load (${name})`, 'load-worker.ts');
}

async function execute(worker: LoadWorker, job: LoadJob): Promise<LoadResult> {
  worker.send({ type: 'run', job });
  const timeoutMs = (job.durationS + job.warmupS) * 1000 + SLACK_MS;
  return (await worker.receive('result', timeoutMs)).result;
}

/**
 * Load processes kept between runs (the rounds of a scenario and its baselines), so that short
 * runs do not each pay for starting one; a process runs one job at a time.
 */
export class LoadPool {
  private readonly idle: LoadWorker[] = [];
  private started = 0;

  async run(job: LoadJob): Promise<LoadResult> {
    const worker = this.idle.pop() ?? startWorker(`pool #${++this.started}`);
    try {
      const result = await execute(worker, job);
      this.idle.push(worker);
      return result;
    } catch (error) {
      await worker.stop();
      throw error;
    }
  }

  async close(): Promise<void> {
    for (const worker of this.idle.splice(0)) {
      await worker.stop();
    }
  }
}

/** Runs one autocannon job in its own process (or one of the pool's) and returns what it measured. */
export async function runLoad(name: string, job: LoadJob, pool?: LoadPool): Promise<LoadResult> {
  if (pool) {
    return pool.run(job);
  }
  const worker = startWorker(name);
  try {
    return await execute(worker, job);
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
  pool?: LoadPool,
): Promise<LoadResult> {
  if (origins.length <= 1) {
    return runLoad(name, { ...job, origin: origins[0] ?? job.origin }, pool);
  }
  const share = Math.max(1, Math.floor(job.connections / origins.length));
  const results = await Promise.all(
    origins.map((origin, i) =>
      runLoad(`${name} #${i + 1}`, { ...job, origin, connections: share }, pool),
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

export type LoadWithCpu = LoadResult & { cpu_us_per_request: number | null };

/**
 * As runLoadSpread, with the servers' CPU time per request over the measured run (warm-up run
 * first, apart): steadier than req/s when other work shares the cores.
 */
export async function runLoadWithCpu(
  name: string,
  job: LoadJob,
  targets: LoadTarget[],
  pool?: LoadPool,
): Promise<LoadWithCpu> {
  const origins = targets.map((target) => target.origin);
  if (job.warmupS > 0) {
    await runLoadSpread(
      `${name} warm-up`,
      { ...job, durationS: job.warmupS, warmupS: 0 },
      origins,
      pool,
    );
  }
  const cpu = () => targets.reduce((total, target) => total + cpuTimeMs(target.pid), 0);
  const before = cpu();
  const result = await runLoadSpread(name, { ...job, warmupS: 0 }, origins, pool);
  const used = cpu() - before;
  return {
    ...result,
    cpu_us_per_request: result.requests > 0 ? (used * 1000) / result.requests : null,
  };
}
