import { ScenarioLine, TargetCheck } from './report';

const UNITS: Record<string, string> = {
  ratio_vs_floor_nest: '× floor-nest',
  ratio_vs_peer: '× peer-nest',
  p99_ms: 'ms p99',
  messages_per_s: 'messages/s',
  rss_mib_at_10k_streams: 'MiB RSS at 10k streams',
  rss_mib_per_stream: 'MiB RSS per stalled replay stream',
  startup_ms: 'ms to /readyz',
  match_ms_per_message: 'ms per message',
};

function formatNumber(value: unknown): string {
  if (typeof value !== 'number') {
    return '–';
  }
  if (Math.abs(value) >= 1000) {
    return Math.round(value).toLocaleString('en-US');
  }
  if (Math.abs(value) >= 10) {
    return String(Math.round(value * 10) / 10);
  }
  return String(Number(value.toPrecision(3)));
}

/** A figure from rounds as "median [lowest–highest]"; a figure of its own as it is. */
function formatSpread(line: ScenarioLine, metric: string): string {
  const [min, max] = [line[`${metric}_min`], line[`${metric}_max`]];
  const spread =
    typeof min === 'number' && typeof max === 'number'
      ? ` [${formatNumber(min)}–${formatNumber(max)}]`
      : '';
  return `${formatNumber(line[metric])}${spread}`;
}

function verdictOf(check: TargetCheck): string {
  if (check.spread_crosses_target) {
    return 'spread crosses target';
  }
  return check.met === null ? 'n/a' : check.met ? 'met' : 'MISSED';
}

function formatTarget(line: ScenarioLine, check: TargetCheck): string {
  const unit = UNITS[check.metric] ?? check.metric;
  const op = check.op === '>=' ? '≥' : '≤';
  const figure = formatSpread(line, check.metric);
  return `${figure} ${unit} (target ${op} ${formatNumber(check.bound)}): ${verdictOf(check)}`;
}

/** The scenario, with where it ran when that is not one instance on SQLite. */
function scenarioLabel(line: ScenarioLine): string {
  const where = [
    line.database === 'postgres' ? 'postgres' : null,
    typeof line.instances === 'number' && line.instances > 1 ? `${line.instances} instances` : null,
  ].filter(Boolean);
  return where.length > 0 ? `${line.scenario} (${where.join(', ')})` : line.scenario;
}

/** Baselines say so; a load line run where no target applies shows its own figures. */
function untargeted(line: ScenarioLine): string {
  if (line.scenario.startsWith('floor-') || line.scenario === 'peer-nest') {
    return '(baseline)';
  }
  const figures = (['ratio_vs_peer', 'messages_per_s'] as const)
    .filter((metric) => typeof line[metric] === 'number')
    .map((metric) => `${formatSpread(line, metric)} ${UNITS[metric]}`);
  return [...figures, '(no target here)'].join('; ');
}

const COLUMNS: [string, (line: ScenarioLine) => string][] = [
  ['scenario', scenarioLabel],
  ['req/s', (line) => formatNumber(line.rps)],
  ['p50 ms', (line) => formatNumber(line.p50_ms)],
  ['p99 ms', (line) => formatNumber(line.p99_ms)],
  ['× nest', (line) => formatSpread(line, 'ratio_vs_floor_nest')],
  ['× node', (line) => formatSpread(line, 'ratio_vs_floor_node')],
  // The 1-minute load average as the line was made (the suite's own load included).
  ['load', (line) => (Array.isArray(line.load_average) ? formatNumber(line.load_average[0]) : '')],
  [
    'figure vs target',
    (line) =>
      typeof line.error === 'string'
        ? `ERROR: ${line.error.split('\n')[0].slice(0, 100)}`
        : line.targets.map((check) => formatTarget(line, check)).join('; ') || untargeted(line),
  ],
  ['details', (line) => (typeof line.note === 'string' ? line.note : '')],
];

/** The lines as a Markdown table (readable in a terminal, pasteable into docs). */
export function renderTable(lines: ScenarioLine[]): string {
  const rows = lines.map((line) => COLUMNS.map(([, cell]) => cell(line)));
  const header = COLUMNS.map(([title]) => title);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => row[i].length)),
  );
  const render = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 || i >= cells.length - 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [render(header), rule, ...rows.map(render)].join('\n');
}
