import { LoadResult } from '../lib/load-protocol';
import { LoadWithCpu } from '../lib/load-runner';
import { progress } from '../lib/log';
import { Figures } from '../lib/report';
import { alternate, meanOf, medianOf, spreadOf, sumOf } from '../lib/rounds';
import { ratio, round } from '../lib/stats';
import { BaselineGroup, BaselineName, RATIO_FIELDS } from './baselines';
import { LoadContext } from './context';

/** A scenario's rounds and the baseline rounds around them. */
export interface LoadRounds<R extends LoadResult> {
  scenario: R[];
  /** Group i ran just before scenario round i, group i + 1 just after it. */
  groups: BaselineGroup[];
  /** The baselines asked for: each has its ratio fields, null when it is not running. */
  against: BaselineName[];
}

/**
 * The scenario's rounds (`measure` runs one of `sizes.roundS` seconds) alternating with a
 * round of each of the baselines `against` that run on this placement: B S B S … S B.
 */
export async function runRounds<R extends LoadResult>(
  ctx: LoadContext,
  against: BaselineName[],
  measure: () => Promise<R>,
): Promise<LoadRounds<R>> {
  const { rounds, roundS } = ctx.sizes;
  const running = ctx.baselines.running(against);
  progress(`${rounds} rounds of ${roundS} s, alternating with ${running.join(', ') || 'nothing'}`);
  const { baseline, scenario } = await alternate(
    rounds,
    () => ctx.baselines.loadGroup(running),
    measure,
  );
  return { scenario, groups: baseline, against };
}

/** A baseline's figure around scenario round i: the mean of its rounds just before and after. */
export function aroundRound(
  rounds: LoadRounds<LoadResult>,
  i: number,
  name: BaselineName,
  pick: (result: LoadWithCpu) => number | null,
): number | null {
  const sides = [rounds.groups[i]?.[name], rounds.groups[i + 1]?.[name]];
  return meanOf(sides.map((result) => (result ? pick(result) : null)));
}

/** Each scenario round's figures, with its throughput against the baselines around it. */
export function perRound(
  rounds: LoadRounds<LoadResult & { cpu_us_per_request?: number | null }>,
): Figures[] {
  return rounds.scenario.map((result, i) => ({
    rps: round(result.rps, 1),
    p50_ms: round(result.p50_ms),
    p99_ms: round(result.p99_ms),
    ...(result.cpu_us_per_request === undefined
      ? {}
      : { cpu_us_per_request: round(result.cpu_us_per_request, 0) }),
    ...Object.fromEntries(
      rounds.against.map((name) => [
        RATIO_FIELDS[name],
        ratio(
          result.rps,
          aroundRound(rounds, i, name, (baseline) => baseline.rps),
        ),
      ]),
    ),
  }));
}

/**
 * A load line's figures from its rounds: the median of each figure, each ratio's lowest and
 * highest round beside it, the counts summed, the rounds themselves and the baselines' req/s.
 */
export function roundFigures(
  ctx: LoadContext,
  rounds: LoadRounds<LoadResult>,
  figures: Figures[],
): Figures {
  const { connections, roundS, warmupS, mode } = ctx.sizes;
  const running = ctx.baselines.running(rounds.against);
  return {
    ...medianOf(figures, 'rps', 1),
    ...medianOf(figures, 'p50_ms'),
    ...medianOf(figures, 'p99_ms'),
    ...Object.assign({}, ...rounds.against.map((name) => spreadOf(figures, RATIO_FIELDS[name]))),
    mode,
    connections,
    round_s: roundS,
    duration_s: sumOf(rounds.scenario, 'duration_s'),
    requests: sumOf(rounds.scenario, 'requests', 0),
    non2xx: sumOf(rounds.scenario, 'non2xx', 0),
    errors: sumOf(rounds.scenario, 'errors', 0),
    timeouts: sumOf(rounds.scenario, 'timeouts', 0),
    rounds: figures,
    baseline_rps: Object.fromEntries(
      running.map((name) => [name, rounds.groups.map((group) => round(group[name]?.rps, 1))]),
    ),
    note:
      `${connections} connections; ${figures.length} rounds of ${roundS} s after ${warmupS} s ` +
      `warm-up, alternating with ${running.join(', ') || 'no baseline'}`,
  };
}
