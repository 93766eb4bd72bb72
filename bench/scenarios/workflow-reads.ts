import { API } from '../../test/support/api-client';
import { runLoadSpread } from '../lib/load-runner';
import { Figures, ScenarioLine, scenarioLine } from '../lib/report';
import { ratio } from '../lib/stats';
import { EmbeddedContext, placement, targetsFor } from './context';
import { loadFigures } from './load-figures';

async function readLoad(
  scenario: 'get-workflow' | 'list-workflows',
  path: string,
  ctx: EmbeddedContext,
  extra: (rps: number) => Figures = () => ({}),
): Promise<ScenarioLine> {
  const result = await runLoadSpread(
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
    ctx.origins,
  );
  return scenarioLine(
    scenario,
    {
      ...loadFigures(result, ctx.sizes, ctx.floors),
      ...extra(result.rps),
      ...placement(ctx),
      path,
    },
    targetsFor(scenario, ctx),
  );
}

/** Scenario 1: one workflow by id (auth, rate limit, envelope, one database read). */
export function getWorkflow(ctx: EmbeddedContext): Promise<ScenarioLine> {
  return readLoad('get-workflow', `/workflows/${ctx.seed.workflowId}`, ctx, (rps) => ({
    ratio_vs_peer: ratio(rps, ctx.floors.peer),
  }));
}

/** Scenario 2: the first page of the workflow list. */
export function listWorkflows(ctx: EmbeddedContext): Promise<ScenarioLine> {
  return readLoad('list-workflows', '/workflows?limit=20', ctx);
}
