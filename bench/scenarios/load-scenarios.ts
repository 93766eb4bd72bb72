import { ApiClient } from '../../test/support/api-client';
import { LoadPool } from '../lib/load-runner';
import { DatabaseKind, ScenarioName, Sizes } from '../lib/options';
import { Report, ScenarioLine } from '../lib/report';
import { runScenario } from '../lib/scenario-runner';
import { workflowEnvelope } from '../lib/seed';
import { Baselines } from './baselines';
import { EmbeddedSeed, LoadContext } from './context';
import { startFloors } from './floors';
import { postMessages } from './message-posts';
import { startPeer } from './peer';
import { getWorkflow, listWorkflows } from './workflow-reads';

export const LOAD_SCENARIOS: ScenarioName[] = ['get-workflow', 'list-workflows', 'post-messages'];

export interface BaselineRequest {
  api: ApiClient;
  seed: EmbeddedSeed;
  database: DatabaseKind;
  databaseUrl: string;
  workDir: string;
  sizes: Sizes;
  scenarios: Set<ScenarioName>;
}

/**
 * Starts the baselines the placement's load scenarios alternate rounds with: the floors, and the
 * peer on this placement's database when get-workflow runs. None when no load scenario runs.
 */
async function startBaselines(
  req: BaselineRequest,
  loads: LoadPool,
  report: Report,
): Promise<Baselines> {
  const baselines = new Baselines(req.sizes, loads, { database: req.database });
  if (!LOAD_SCENARIOS.some((name) => req.scenarios.has(name))) {
    return baselines;
  }
  const envelope = await workflowEnvelope(req.api, req.seed.workflowId);
  await startFloors(baselines, envelope, req.workDir, report);
  if (req.scenarios.has('get-workflow')) {
    const target = {
      databaseUrl: req.databaseUrl,
      database: req.database,
      key: req.api.key,
      workflowId: req.seed.workflowId,
      envelope,
    };
    await baselines.start('peer-nest', report, () => startPeer(target));
  }
  return baselines;
}

/**
 * Runs `work` (the placement's load scenarios) with the baselines running and a pool of load
 * processes, then reports each baseline's line from its rounds and stops them all.
 */
export async function withBaselines(
  req: BaselineRequest,
  report: Report,
  work: (baselines: Baselines, loads: LoadPool) => Promise<void>,
): Promise<void> {
  const loads = new LoadPool();
  try {
    const baselines = await startBaselines(req, loads, report);
    try {
      await work(baselines, loads);
    } finally {
      await baselines.finish(report);
    }
  } finally {
    await loads.close();
  }
}

/** Scenarios 1–3 on one placement (database, instances), each line saying where it ran. */
export async function runLoadScenarios(
  report: Report,
  scenarios: Set<ScenarioName>,
  ctx: () => LoadContext,
): Promise<void> {
  const steps: [ScenarioName, (c: LoadContext) => Promise<ScenarioLine>][] = [
    ['get-workflow', getWorkflow],
    ['list-workflows', listWorkflows],
    ['post-messages', postMessages],
  ];
  for (const [name, scenario] of steps) {
    if (scenarios.has(name)) {
      const context = ctx();
      await runScenario(report, name, context.sizes, () => scenario(context), {
        database: context.database,
        instances: context.instances.length,
      });
    }
  }
}
