import autocannon from 'autocannon';
import { LoadAnswer, LoadCommand, LoadJob, LoadResult } from './lib/load-protocol';
import { serveParent } from './lib/worker';

/** The load generator: autocannon, in a process of its own so it never shares the suite's loop. */
function options(job: LoadJob, durationS: number): autocannon.Options {
  let next = 0;
  const rotate = job.paths.length > 1 || (job.bodies?.length ?? 0) > 1;
  const request: autocannon.Request = rotate
    ? {
        method: job.method,
        setupRequest: (req) => {
          const i = next++;
          return {
            ...req,
            path: job.paths[i % job.paths.length],
            body: job.bodies?.[i % job.bodies.length],
          };
        },
      }
    : { method: job.method, path: job.paths[0], body: job.bodies?.[0] };
  return {
    url: job.origin,
    connections: job.connections,
    duration: durationS,
    headers: job.headers,
    requests: [request],
    timeout: 10,
  };
}

async function measure(job: LoadJob): Promise<LoadResult> {
  if (job.warmupS > 0) {
    await autocannon(options(job, job.warmupS));
  }
  const startedAt = Date.now();
  const result = await autocannon(options(job, job.durationS));
  const endedAt = Date.now();
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration_s: result.duration,
    started_at: startedAt,
    ended_at: endedAt,
  };
}

serveParent<LoadCommand>(async (command): Promise<LoadAnswer> => ({
  type: 'result',
  result: await measure(command.job),
}));
