import { ApiClient } from '../../test/support/api-client';
import { DatabaseKind, ScenarioName, Sizes } from '../lib/options';
import { Report, ScenarioLine } from '../lib/report';
import { runScenario } from '../lib/scenario-runner';
import { workflowEnvelope } from '../lib/seed';
import { EmbeddedContext, EmbeddedSeed, Floors } from './context';
import { measureFloors } from './floors';
import { postMessages } from './message-posts';
import { measurePeer } from './peer';
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
  /** The floors of an earlier placement of the same run, measured once per run. */
  floors: Floors | null;
}

/**
 * The baselines the load lines are divided by: the floors (once per run, from the first
 * placement) and the peer on this placement's database (when get-workflow runs).
 */
export async function measureBaselines(req: BaselineRequest, report: Report): Promise<Floors> {
  if (!LOAD_SCENARIOS.some((name) => req.scenarios.has(name))) {
    return { node: null, nest: null, peer: null, peerCpuUs: null };
  }
  const envelope = await workflowEnvelope(req.api, req.seed.workflowId);
  const floors = req.floors ?? (await measureFloors(envelope, req.workDir, req.sizes, report));
  let peer: Pick<Floors, 'peer' | 'peerCpuUs'> = { peer: null, peerCpuUs: null };
  if (req.scenarios.has('get-workflow')) {
    const where = { database: req.database };
    await runScenario(
      report,
      'peer-nest',
      req.sizes,
      async () => {
        const measured = await measurePeer(
          {
            databaseUrl: req.databaseUrl,
            database: req.database,
            key: req.api.key,
            workflowId: req.seed.workflowId,
            envelope,
          },
          req.sizes,
          floors,
        );
        peer = { peer: measured.rps, peerCpuUs: measured.cpuUsPerRequest };
        return measured.line;
      },
      where,
    );
  }
  return { ...floors, ...peer };
}

/** Scenarios 1–3 on one placement (database, instances), each line saying where it ran. */
export async function runLoadScenarios(
  report: Report,
  scenarios: Set<ScenarioName>,
  ctx: () => EmbeddedContext,
): Promise<void> {
  const steps: [ScenarioName, (c: EmbeddedContext) => Promise<ScenarioLine>][] = [
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
