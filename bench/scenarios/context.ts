import { ApiClient } from '../../test/support/api-client';
import { AppInstance } from '../lib/app-instance';
import { LoadPool } from '../lib/load-runner';
import { DatabaseKind, Sizes } from '../lib/options';
import { Target } from '../lib/report';
import { TARGETS } from '../targets';
import { Baselines } from './baselines';

/** What the load scenarios work on, seeded through the API. */
export interface EmbeddedSeed {
  workflowId: string;
  agentId: string;
  /** The message load is spread over these; the stream capacity test opens streams on them. */
  postConversationIds: string[];
  warmupConversationIds: string[];
  fanoutConversationId: string;
}

export interface EmbeddedContext {
  sizes: Sizes;
  app: AppInstance;
  api: ApiClient;
  seed: EmbeddedSeed;
  database: DatabaseKind;
  /** Where the load goes: the app alone, or every instance of a cluster (connections split). */
  instances: AppInstance[];
}

/** What the load scenarios (1–3) work with besides: the baselines they alternate rounds with. */
export interface LoadContext extends EmbeddedContext {
  /** The placement's running baselines. */
  baselines: Baselines;
  /** The placement's load processes, kept between rounds. */
  loads: LoadPool;
}

/** What every load line says about where it ran. */
export function placement(ctx: EmbeddedContext): Record<string, unknown> {
  return { database: ctx.database, instances: ctx.instances.length };
}

/** The targets are set on one instance on SQLite; other placements give figures to read. */
export function targetsFor(scenario: string, ctx: EmbeddedContext): Target[] {
  return ctx.database === 'sqlite' && ctx.instances.length === 1 ? TARGETS[scenario] : [];
}

export function originsOf(ctx: EmbeddedContext): string[] {
  return ctx.instances.map((instance) => instance.origin);
}
