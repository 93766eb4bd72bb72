import { listStatementTexts } from '@/database/sql/list-pages';
import { ConversationScope, listRead } from '@/modules/conversations/conversation-list';
import { API, ApiClient } from '../../test/support/api-client';
import { createKeyWithCli, createTeamWithCli } from '../../test/support/keys';
import {
  INBOX_ASSIGNEES,
  INBOX_LABELS,
  openDatabase,
  queryPlan,
  seedInbox,
} from '../lib/inbox-seed';
import { runLoadWithCpu } from '../lib/load-runner';
import { progress } from '../lib/log';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round } from '../lib/stats';
import { EmbeddedContext, placement, targetsFor } from './context';

/** The team's inbox: 100,000 conversations over a few agents; the next team's beside them. */
const TEAM_CONVERSATIONS = 100_000;
const OTHER_TEAM_CONVERSATIONS = 20_000;
const AGENTS = 4;
/** An operator's screen polling its queue, not a flood: a modest concurrency. */
const CONNECTIONS = 10;
const PAGE = 20;

interface Variant {
  name: string;
  /** The query strings the load rotates through (the values vary, the filters do not). */
  queries: Record<string, string>[];
}

const VARIANTS: Variant[] = [
  {
    name: 'status_assignee_label',
    queries: INBOX_ASSIGNEES.map((assignee, i) => ({
      status: 'open',
      assignee_id: assignee,
      label: INBOX_LABELS[i % INBOX_LABELS.length],
    })),
  },
  {
    name: 'status_priority_attention',
    queries: ['open', 'pending'].flatMap((status) =>
      ['high', 'urgent'].map((priority) => ({ status, priority, needs_attention: 'true' })),
    ),
  },
  {
    name: 'unassigned_label',
    queries: INBOX_LABELS.map((label) => ({ status: 'open', assignee_id: 'none', label })),
  },
];

function path(query: Record<string, string>): string {
  return `/conversations?${new URLSearchParams({ ...query, limit: String(PAGE) }).toString()}`;
}

/** Where the scenario's app keeps its data, and how its CLI reaches it (to make the other team). */
export interface InboxPlacement {
  databaseUrl: string;
  env: Record<string, string>;
}

async function createAgents(api: ApiClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await api.createAgent(`Inbox desk ${i + 1}`, { name: `Desk ${i + 1}` })).id);
  }
  return ids;
}

/**
 * `GET /conversations` (the team queue) with three filters at once, on a team of 100,000
 * conversations (and another team's 20,000 beside them), through real HTTP at a modest
 * concurrency. The rows are written straight into the database (seedInbox); the line carries
 * each variant's p99 and the plan the engine chose for it.
 */
export async function inboxList(
  ctx: EmbeddedContext,
  where: InboxPlacement,
): Promise<ScenarioLine> {
  progress('inbox-list: agents of two teams through the API');
  const agentIds = await createAgents(ctx.api, AGENTS);
  const otherTeam = `inbox-other-${Date.now()}`;
  await createTeamWithCli(where.env, otherTeam);
  const other = new ApiClient(
    ctx.app.origin,
    (await createKeyWithCli(where.env, otherTeam, '*')).key,
  );
  const otherAgentIds = await createAgents(other, 2);

  const { db, close } = await openDatabase(where.databaseUrl);
  const plans: Record<string, string[]> = {};
  let seedS: number;
  try {
    const teamOf = async (agentId: string) =>
      String(
        (await db.execute('SELECT team_id FROM agents WHERE id = $1', [agentId])).rows[0].team_id,
      );
    const scope: ConversationScope = { teamId: await teamOf(agentIds[0]), agentIds: null };
    progress(
      `inbox-list: seeding ${TEAM_CONVERSATIONS} + ${OTHER_TEAM_CONVERSATIONS} conversations in SQL`,
    );
    const started = performance.now();
    await seedInbox(db, [
      { teamId: scope.teamId, agentIds, conversations: TEAM_CONVERSATIONS },
      {
        teamId: await teamOf(otherAgentIds[0]),
        agentIds: otherAgentIds,
        conversations: OTHER_TEAM_CONVERSATIONS,
      },
    ]);
    seedS = (performance.now() - started) / 1000;
    for (const variant of VARIANTS) {
      // The query as the validation pipe hands it over: needs_attention a boolean.
      const { needs_attention: attention, ...rest } = variant.queries[0];
      const query =
        attention === undefined ? rest : { ...rest, needs_attention: attention === 'true' };
      const { table, filter } = listRead(scope, query);
      const { page } = listStatementTexts(table, db.dialect, filter, {});
      plans[variant.name] = await queryPlan(db, page, [...filter.params, PAGE, 0]);
    }
  } finally {
    await close();
  }

  // A client of its own: the seeding outlasts the server's keep-alive on the first one's socket.
  const api = new ApiClient(ctx.app.origin, ctx.api.key);
  const figures: Record<string, unknown> = {};
  let worst = 0;
  let requests = 0;
  let failed = 0;
  for (const variant of VARIANTS) {
    const sample = await api.get(path(variant.queries[0]));
    if (sample.status !== 200) {
      throw new Error(`${path(variant.queries[0])}: ${sample.status} ${sample.text}`);
    }
    figures[`${variant.name}_total`] = sample.body.meta.total_count;
    const result = await runLoadWithCpu(
      `inbox-list ${variant.name}`,
      {
        origin: ctx.app.origin,
        method: 'GET',
        paths: variant.queries.map((query) => `${API}${path(query)}`),
        headers: { 'X-Api-Key': ctx.api.key },
        connections: CONNECTIONS,
        durationS: ctx.sizes.durationS,
        warmupS: ctx.sizes.warmupS,
      },
      ctx.instances.map((instance) => ({ origin: instance.origin, pid: instance.pid })),
    );
    worst = Math.max(worst, result.p99_ms);
    requests += result.requests;
    failed += result.non2xx + result.errors + result.timeouts;
    figures[`${variant.name}_rps`] = round(result.rps, 1);
    figures[`${variant.name}_p50_ms`] = round(result.p50_ms);
    figures[`${variant.name}_p99_ms`] = round(result.p99_ms);
    figures[`${variant.name}_cpu_us_per_request`] = round(result.cpu_us_per_request, 0);
  }
  return scenarioLine(
    'inbox-list',
    {
      p99_ms: round(worst),
      ...figures,
      mode: ctx.sizes.mode,
      connections: CONNECTIONS,
      requests,
      failed,
      seed_s: round(seedS, 1),
      conversations: TEAM_CONVERSATIONS,
      other_team_conversations: OTHER_TEAM_CONVERSATIONS,
      plans,
      ...placement(ctx),
      note:
        `p99 of the slowest of ${VARIANTS.length} filter combinations, ${CONNECTIONS} connections, ` +
        `${ctx.sizes.durationS} s each after ${ctx.sizes.warmupS} s warm-up`,
    },
    targetsFor('inbox-list', ctx),
  );
}
