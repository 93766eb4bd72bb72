import { API } from '../../test/support/api-client';
import { LoadJob } from '../lib/load-protocol';
import { LoadWithCpu, runLoadSpread, runLoadWithCpu } from '../lib/load-runner';
import { Figures, ScenarioLine, scenarioLine } from '../lib/report';
import { medianOf, spreadOf } from '../lib/rounds';
import { ratio } from '../lib/stats';
import { BaselineName, FLOORS, FLOORS_AND_PEER } from './baselines';
import { LoadContext, originsOf, placement, targetsFor } from './context';
import { aroundRound, LoadRounds, perRound, roundFigures, runRounds } from './load-rounds';

/** The peer's CPU time per request around each round over ours (above 1: we spend less). */
function cpuVsPeer(rounds: LoadRounds<LoadWithCpu>, figures: Figures[]): Figures[] {
  return figures.map((figure, i) => {
    const peerCpuUs = aroundRound(rounds, i, 'peer-nest', (peer) => peer.cpu_us_per_request);
    const ours = rounds.scenario[i].cpu_us_per_request;
    return { ...figure, cpu_ratio_vs_peer: ratio(peerCpuUs, ours) };
  });
}

async function readLoad(
  scenario: 'get-workflow' | 'list-workflows',
  path: string,
  ctx: LoadContext,
  against: BaselineName[],
): Promise<ScenarioLine> {
  const job: LoadJob = {
    origin: ctx.app.origin,
    method: 'GET',
    paths: [`${API}${path}`],
    headers: { 'X-Api-Key': ctx.api.key },
    connections: ctx.sizes.connections,
    durationS: ctx.sizes.roundS,
    warmupS: 0,
  };
  const targets = ctx.instances.map((instance) => ({ origin: instance.origin, pid: instance.pid }));
  if (ctx.sizes.warmupS > 0) {
    const warmUp = { ...job, durationS: ctx.sizes.warmupS };
    await runLoadSpread(`${scenario} warm-up`, warmUp, originsOf(ctx), ctx.loads);
  }
  const rounds = await runRounds(ctx, against, () =>
    runLoadWithCpu(scenario, job, targets, ctx.loads),
  );
  const withPeer = against.includes('peer-nest');
  const figures = withPeer ? cpuVsPeer(rounds, perRound(rounds)) : perRound(rounds);
  return scenarioLine(
    scenario,
    {
      ...roundFigures(ctx, rounds, figures),
      ...(withPeer ? spreadOf(figures, 'cpu_ratio_vs_peer') : {}),
      ...medianOf(figures, 'cpu_us_per_request', 0),
      ...placement(ctx),
      path,
    },
    targetsFor(scenario, ctx),
  );
}

/** Scenario 1: one workflow by id (auth, rate limit, envelope, one database read). */
export function getWorkflow(ctx: LoadContext): Promise<ScenarioLine> {
  return readLoad('get-workflow', `/workflows/${ctx.seed.workflowId}`, ctx, FLOORS_AND_PEER);
}

/** Scenario 2: the first page of the workflow list. */
export function listWorkflows(ctx: LoadContext): Promise<ScenarioLine> {
  return readLoad('list-workflows', '/workflows?limit=20', ctx, FLOORS);
}
