import { API } from '../../test/support/api-client';
import { runLoadWithCpu } from '../lib/load-runner';
import { Figures, ScenarioLine, scenarioLine } from '../lib/report';
import { ratio, round } from '../lib/stats';
import { EmbeddedContext, placement, targetsFor } from './context';
import { loadFigures } from './load-figures';

async function readLoad(
  scenario: 'get-workflow' | 'list-workflows',
  path: string,
  ctx: EmbeddedContext,
  extra: (figures: { rps: number; cpuUs: number | null }) => Figures = () => ({}),
): Promise<ScenarioLine> {
  const result = await runLoadWithCpu(
    scenario,
    {
      origin: ctx.app.origin,
      method: 'GET',
      paths: [`${API}${path}`],
      headers: { 'X-Api-Key': ctx.api.key },
      connections: ctx.sizes.connections,
      durationS: ctx.sizes.durationS,
      warmupS: ctx.sizes.warmupS,
    },
    ctx.instances.map((instance) => ({ origin: instance.origin, pid: instance.pid })),
  );
  const cpuUs = result.cpu_us_per_request;
  return scenarioLine(
    scenario,
    {
      ...loadFigures(result, ctx.sizes, ctx.floors),
      cpu_us_per_request: round(cpuUs, 0),
      ...extra({ rps: result.rps, cpuUs }),
      ...placement(ctx),
      path,
    },
    targetsFor(scenario, ctx),
  );
}

/** Scenario 1: one workflow by id (auth, rate limit, envelope, one database read). */
export function getWorkflow(ctx: EmbeddedContext): Promise<ScenarioLine> {
  return readLoad('get-workflow', `/workflows/${ctx.seed.workflowId}`, ctx, ({ rps, cpuUs }) => ({
    ratio_vs_peer: ratio(rps, ctx.floors.peer),
    // The same comparison in CPU time: peer's per request / ours (above 1: we spend less).
    cpu_ratio_vs_peer: ratio(ctx.floors.peerCpuUs, cpuUs),
  }));
}

/** Scenario 2: the first page of the workflow list. */
export function listWorkflows(ctx: EmbeddedContext): Promise<ScenarioLine> {
  return readLoad('list-workflows', '/workflows?limit=20', ctx);
}
