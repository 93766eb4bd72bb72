import { LoadResult } from '../lib/load-protocol';
import { Sizes } from '../lib/options';
import { Figures } from '../lib/report';
import { ratio, round } from '../lib/stats';
import { Floors } from './context';

/** The figures of one autocannon run, with its throughput as ratios against the floors. */
export function loadFigures(result: LoadResult, sizes: Sizes, floors: Floors): Figures {
  return {
    rps: round(result.rps, 1),
    p50_ms: round(result.p50_ms),
    p99_ms: round(result.p99_ms),
    ratio_vs_floor_nest: ratio(result.rps, floors.nest),
    ratio_vs_floor_node: ratio(result.rps, floors.node),
    mode: sizes.mode,
    connections: sizes.connections,
    duration_s: round(result.duration_s),
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    note: `${sizes.connections} connections, ${sizes.durationS} s after ${sizes.warmupS} s warm-up`,
  };
}
