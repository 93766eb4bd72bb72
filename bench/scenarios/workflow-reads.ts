import { API } from '../../test/support/api-client';
import { runLoad } from '../lib/load-runner';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { TARGETS } from '../targets';
import { EmbeddedContext } from './context';
import { loadFigures } from './load-figures';

async function readLoad(
  scenario: 'get-workflow' | 'list-workflows',
  path: string,
  ctx: EmbeddedContext,
): Promise<ScenarioLine> {
  const result = await runLoad(scenario, {
    origin: ctx.app.origin,
    method: 'GET',
    paths: [`${API}${path}`],
    headers: { 'X-Api-Key': ctx.api.key },
    connections: ctx.sizes.connections,
    durationS: ctx.sizes.durationS,
    warmupS: ctx.sizes.warmupS,
  });
  return scenarioLine(
    scenario,
    { ...loadFigures(result, ctx.sizes, ctx.floors), path },
    TARGETS[scenario],
  );
}

/** Scenario 1: one workflow by id (auth, rate limit, envelope, one database read). */
export function getWorkflow(ctx: EmbeddedContext): Promise<ScenarioLine> {
  return readLoad('get-workflow', `/workflows/${ctx.seed.workflowId}`, ctx);
}

/** Scenario 2: the first page of the workflow list. */
export function listWorkflows(ctx: EmbeddedContext): Promise<ScenarioLine> {
  return readLoad('list-workflows', '/workflows?limit=20', ctx);
}
