import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './processes';
import { round } from './stats';

export type Comparison = '>=' | '<=';

export interface TargetCheck {
  metric: string;
  op: Comparison;
  bound: number;
  value: number | null;
  met: boolean | null;
  /**
   * True when the figure comes from rounds (`<metric>_min`, `<metric>_max` beside it) and some
   * rounds meet the bound while others miss it: `met` is then the median's verdict only.
   */
  spread_crosses_target: boolean | null;
}

/** The figures every line carries (null where they mean nothing for the scenario). */
export interface CoreFigures {
  rps: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  ratio_vs_floor_nest: number | null;
  ratio_vs_floor_node: number | null;
}

export type Figures = Partial<CoreFigures> & Record<string, unknown>;

/** One scenario's figures: the JSON line printed for it. */
export type ScenarioLine = CoreFigures &
  Record<string, unknown> & {
    scenario: string;
    targets: TargetCheck[];
    /** True when every target is met; null when there is none or a figure is missing. */
    target_met: boolean | null;
  };

export interface Target {
  metric: string;
  op: Comparison;
  bound: number;
}

function numberOf(raw: unknown): number | null {
  return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
}

export function check(target: Target, figures: Figures): TargetCheck {
  const meets = (value: number | null) =>
    value === null ? null : target.op === '>=' ? value >= target.bound : value <= target.bound;
  const value = numberOf(figures[target.metric]);
  const min = meets(numberOf(figures[`${target.metric}_min`]));
  const max = meets(numberOf(figures[`${target.metric}_max`]));
  const spread_crosses_target = min === null || max === null ? null : min !== max;
  return { ...target, value, met: meets(value), spread_crosses_target };
}

export function scenarioLine(scenario: string, figures: Figures, targets: Target[]): ScenarioLine {
  const checks = targets.map((target) => check(target, figures));
  const target_met =
    checks.length === 0 || checks.some((c) => c.met === null) ? null : checks.every((c) => c.met);
  const {
    rps = null,
    p50_ms = null,
    p99_ms = null,
    ratio_vs_floor_nest = null,
    ratio_vs_floor_node = null,
    ...rest
  } = figures;
  return {
    scenario,
    rps,
    p50_ms,
    p99_ms,
    ratio_vs_floor_nest,
    ratio_vs_floor_node,
    ...rest,
    // The machine's 1, 5 and 15 minute load averages as the line is made: the suite's own load
    // counts in them.
    load_average: loadavg().map((load) => round(load, 2)),
    targets: checks,
    target_met,
  };
}

const RESULTS_DIR = join(BENCH_DIR, 'results');

/** Collects the lines: prints each as it comes, keeps them for the file and the table. */
export class Report {
  readonly lines: ScenarioLine[] = [];

  add(line: ScenarioLine): void {
    this.lines.push(line);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }

  save(): string {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, 'latest.jsonl');
    writeFileSync(file, this.lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    return file;
  }
}
