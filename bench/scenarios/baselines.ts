import { LoadPool, LoadWithCpu, runLoadWithCpu } from '../lib/load-runner';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { Figures, Report, scenarioLine } from '../lib/report';
import { medianOf, spreadOf, sumOf } from '../lib/rounds';
import { ratio, round } from '../lib/stats';
import { TARGETS } from '../targets';

export type FloorName = 'floor-node' | 'floor-nest';
export type BaselineName = FloorName | 'peer-nest';

export const FLOORS: FloorName[] = ['floor-node', 'floor-nest'];
export const FLOORS_AND_PEER: BaselineName[] = [...FLOORS, 'peer-nest'];

/** The field of a line holding its throughput against each baseline. */
export const RATIO_FIELDS: Record<BaselineName, string> = {
  'floor-node': 'ratio_vs_floor_node',
  'floor-nest': 'ratio_vs_floor_nest',
  'peer-nest': 'ratio_vs_peer',
};

/** A baseline server, started once for a placement and loaded in rounds. */
export interface BaselineServer {
  name: BaselineName;
  origin: string;
  pid: number;
  path: string;
  headers: Record<string, string>;
  /** What its line says about it besides the load figures (body size, same data…). */
  facts: Figures;
  stop(): Promise<unknown>;
}

/** One round of each baseline, loaded back to back. */
export type BaselineGroup = Partial<Record<BaselineName, LoadWithCpu>>;

/**
 * The baselines of one placement, kept running while its load scenarios alternate rounds with
 * them; each baseline's line sums up every round it ran there.
 */
export class Baselines {
  private readonly servers = new Map<BaselineName, BaselineServer>();
  private readonly groups: BaselineGroup[] = [];

  constructor(
    private readonly sizes: Sizes,
    private readonly loads: LoadPool,
    /** Where the scenarios they are loaded beside run (`database`). */
    private readonly where: Figures,
  ) {}

  /**
   * Starts a baseline and takes it into the rounds after a warm-up run of its own. One that cannot
   * start gets a line saying why; the ratios against it are null.
   */
  async start(
    name: BaselineName,
    report: Report,
    start: () => Promise<BaselineServer>,
  ): Promise<void> {
    try {
      const server = await start();
      try {
        if (this.sizes.warmupS > 0) {
          await this.load(server, this.sizes.warmupS);
        }
      } catch (error) {
        await server.stop();
        throw error;
      }
      this.servers.set(name, server);
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      progress(`${name}: failed: ${message}`);
      const figures = { mode: this.sizes.mode, ...this.where, error: message };
      report.add(scenarioLine(name, figures, TARGETS[name]));
    }
  }

  /** Those of `names` that are running, in that order. */
  running(names: readonly BaselineName[]): BaselineName[] {
    return names.filter((name) => this.servers.has(name));
  }

  /** One round of each of `names`, one after another. */
  async loadGroup(names: readonly BaselineName[]): Promise<BaselineGroup> {
    const group: BaselineGroup = {};
    for (const name of this.running(names)) {
      group[name] = await this.load(this.servers.get(name)!, this.sizes.roundS);
    }
    this.groups.push(group);
    return group;
  }

  /** Reports the line of each of `names` still running, from its rounds, then stops it. */
  async finish(report: Report, names: readonly BaselineName[] = FLOORS_AND_PEER): Promise<void> {
    for (const name of this.running(names)) {
      const server = this.servers.get(name)!;
      this.servers.delete(name);
      await server.stop();
      report.add(scenarioLine(name, this.figures(server), TARGETS[name]));
    }
  }

  private load(server: BaselineServer, durationS: number): Promise<LoadWithCpu> {
    return runLoadWithCpu(
      server.name,
      {
        origin: server.origin,
        method: 'GET',
        paths: [server.path],
        headers: server.headers,
        connections: this.sizes.connections,
        durationS,
        warmupS: 0,
      },
      [{ origin: server.origin, pid: server.pid }],
      this.loads,
    );
  }

  /** Its rounds' medians; its ratios against the others from the rounds of the same group. */
  private figures(server: BaselineServer): Figures {
    const { name } = server;
    const others = new Set<BaselineName>();
    const rounds: Figures[] = [];
    const results: LoadWithCpu[] = [];
    for (const group of this.groups) {
      const own = group[name];
      if (!own) {
        continue;
      }
      results.push(own);
      const ratios: Figures = {};
      for (const other of FLOORS_AND_PEER) {
        const theirs = group[other];
        if (theirs && other !== name) {
          others.add(other);
          ratios[RATIO_FIELDS[other]] = ratio(own.rps, theirs.rps);
        }
      }
      rounds.push({
        rps: round(own.rps, 1),
        p50_ms: round(own.p50_ms),
        p99_ms: round(own.p99_ms),
        cpu_us_per_request: round(own.cpu_us_per_request, 0),
        ...ratios,
      });
    }
    const { connections, roundS, mode } = this.sizes;
    return {
      ...medianOf(rounds, 'rps', 1),
      ...medianOf(rounds, 'p50_ms'),
      ...medianOf(rounds, 'p99_ms'),
      [RATIO_FIELDS[name]]: 1,
      ...Object.assign({}, ...[...others].map((other) => spreadOf(rounds, RATIO_FIELDS[other]))),
      ...medianOf(rounds, 'cpu_us_per_request', 0),
      mode,
      connections,
      round_s: roundS,
      duration_s: sumOf(results, 'duration_s'),
      requests: sumOf(results, 'requests', 0),
      non2xx: sumOf(results, 'non2xx', 0),
      errors: sumOf(results, 'errors', 0),
      timeouts: sumOf(results, 'timeouts', 0),
      rounds,
      ...server.facts,
      ...this.where,
      note:
        `${connections} connections; ${rounds.length} rounds of ${roundS} s between the load ` +
        `scenarios' rounds, after ${this.sizes.warmupS} s warm-up`,
    };
  }
}
