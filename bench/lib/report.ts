import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR } from './processes';

export type Comparison = '>=' | '<=';

export interface TargetCheck {
  metric: string;
  op: Comparison;
  bound: number;
  value: number | null;
  met: boolean | null;
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

export function check(target: Target, figures: Figures): TargetCheck {
  const raw = figures[target.metric];
  const value = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
  const met =
    value === null ? null : target.op === '>=' ? value >= target.bound : value <= target.bound;
  return { ...target, value, met };
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
