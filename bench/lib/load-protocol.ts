/** What the suite asks of the load generator process (bench/load-worker.ts), and its answer. */
export interface LoadJob {
  /** Origin of the target, e.g. http://127.0.0.1:3000. */
  origin: string;
  method: 'GET' | 'POST';
  /** Requests go to these paths in turn (one path: always that one). */
  paths: string[];
  /** Request bodies, used in turn. */
  bodies?: string[];
  headers: Record<string, string>;
  connections: number;
  durationS: number;
  /** A run of this length first, not measured (JIT warm-up). */
  warmupS: number;
}

export interface LoadResult {
  /** 2xx responses per second of the measured run. */
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration_s: number;
  /** Wall clock (epoch ms) when the measured run started and ended. */
  started_at: number;
  ended_at: number;
}

export interface LoadCommand {
  type: 'run';
  job: LoadJob;
}

export interface LoadAnswer {
  type: 'result';
  result: LoadResult;
}
