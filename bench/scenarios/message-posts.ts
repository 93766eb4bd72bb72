import { API, ApiClient, ApiResponse } from '../../test/support/api-client';
import { runLoadSpread } from '../lib/load-runner';
import { LoadJob, LoadResult } from '../lib/load-protocol';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { medianOf, spreadOf, sumOf } from '../lib/rounds';
import { round } from '../lib/stats';
import { USER_MESSAGES } from '../lib/seed';
import { FLOORS } from './baselines';
import { LoadContext, originsOf, placement, targetsFor } from './context';
import { perRound, roundFigures, runRounds } from './load-rounds';

const SETTLE_TIMEOUT_MS = 120_000;
/** Replies have stopped coming when the count stays put this long. */
const STALL_MS = 5_000;
const POLL_MS = 200;

/**
 * A GET of the suite's own: when the server closed a kept-alive socket just as the request went
 * out on it (idle while the load ran), it is sent once more, as Node advises for such requests.
 */
async function read(api: ApiClient, path: string): Promise<ApiResponse> {
  let outcome = await api.call('GET', path);
  if (outcome.kind === 'no-response' && outcome.reusedSocket && !outcome.partial) {
    outcome = await api.call('GET', path);
  }
  if (outcome.kind !== 'response') {
    throw new Error(`GET ${path}: no response (${outcome.code})`);
  }
  if (outcome.status !== 200) {
    throw new Error(`GET ${path}: ${outcome.status} ${outcome.text.slice(0, 300)}`);
  }
  return outcome;
}

async function countMessages(api: ApiClient, agentId: string, ids: string[]): Promise<number> {
  const counts = await Promise.all(
    ids.map(async (id) => {
      const res = await read(api, `/agents/${agentId}/conversations/${id}/messages?limit=1`);
      return Number(res.body.meta.total_count);
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Epoch ms of the newest message of these conversations. */
async function newestMessageAt(api: ApiClient, agentId: string, ids: string[]): Promise<number> {
  const times = await Promise.all(
    ids.map(async (id) => {
      const res = await read(
        api,
        `/agents/${agentId}/conversations/${id}/messages?limit=1&sort=-created_at`,
      );
      return Date.parse(String(res.body.data[0].created_at));
    }),
  );
  return Math.max(...times);
}

/** Waits until every posted user message has its reply (or the count stops moving). */
async function settle(
  api: ApiClient,
  agentId: string,
  ids: string[],
  expected: number,
): Promise<number> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let count = await countMessages(api, agentId, ids);
  let changedAt = Date.now();
  while (count < expected && Date.now() < deadline && Date.now() - changedAt < STALL_MS) {
    await sleep(POLL_MS);
    const next = await countMessages(api, agentId, ids);
    if (next !== count) {
      count = next;
      changedAt = Date.now();
    }
  }
  return count;
}

function postJob(ctx: LoadContext, conversationIds: string[], durationS: number): LoadJob {
  return {
    origin: ctx.app.origin,
    method: 'POST',
    paths: conversationIds.map(
      (id) => `${API}/agents/${ctx.seed.agentId}/conversations/${id}/messages`,
    ),
    bodies: USER_MESSAGES.map((message) => JSON.stringify({ message })),
    headers: { 'X-Api-Key': ctx.api.key, 'Content-Type': 'application/json' },
    connections: ctx.sizes.connections,
    durationS,
    warmupS: 0,
  };
}

interface PostRound extends LoadResult {
  /** Messages (posts and replies) stored from the round's first post to its last reply. */
  stored: number;
  settled: boolean;
  windowS: number;
  lagMs: number;
}

/** One round: posts for the round's length, then the wait until their replies are stored. */
async function postRound(ctx: LoadContext, ids: string[]): Promise<PostRound> {
  const { api, seed } = ctx;
  const before = await countMessages(api, seed.agentId, ids);
  const job = postJob(ctx, ids, ctx.sizes.roundS);
  const result = await runLoadSpread('post-messages', job, originsOf(ctx), ctx.loads);
  const expected = before + 2 * result.ok;
  const after = await settle(api, seed.agentId, ids, expected);
  const lastAt = await newestMessageAt(api, seed.agentId, ids);
  return {
    ...result,
    stored: after - before,
    // The posts still in flight when the load stopped are stored too, hence "at least".
    settled: after >= expected,
    windowS: (lastAt - result.started_at) / 1000,
    lagMs: Math.max(0, lastAt - result.ended_at),
  };
}

/**
 * Scenario 3: user messages posted over many conversations, each answered by the built-in
 * engine, in rounds alternating with the floors. A round's throughput is what got stored
 * (messages and replies) over the time from its first post to its last reply.
 */
export async function postMessages(ctx: LoadContext): Promise<ScenarioLine> {
  const { api, seed, sizes } = ctx;
  if (sizes.warmupS > 0) {
    // On conversations of its own, and settled before measuring, so the measured window holds
    // no warm-up replies.
    const warmIds = seed.warmupConversationIds;
    const warmBefore = await countMessages(api, seed.agentId, warmIds);
    const warm = await runLoadSpread(
      'post-messages warm-up',
      postJob(ctx, warmIds, sizes.warmupS),
      originsOf(ctx),
      ctx.loads,
    );
    await settle(api, seed.agentId, warmIds, warmBefore + 2 * warm.ok);
  }
  const ids = seed.postConversationIds;
  const rounds = await runRounds(ctx, FLOORS, () => postRound(ctx, ids));
  const figures = perRound(rounds).map((figure, i) => {
    const posted = rounds.scenario[i];
    return {
      ...figure,
      messages_per_s: round(posted.stored / posted.windowS, 1),
      messages_stored: posted.stored,
      window_s: round(posted.windowS),
      reply_lag_ms: posted.lagMs,
      replies_settled: posted.settled,
    };
  });
  const common = roundFigures(ctx, rounds, figures);
  return scenarioLine(
    'post-messages',
    {
      ...common,
      ...spreadOf(figures, 'messages_per_s', 1),
      messages_stored: sumOf(figures, 'messages_stored', 0),
      user_messages_posted: sumOf(rounds.scenario, 'ok', 0),
      replies_settled: rounds.scenario.every((posted) => posted.settled),
      ...medianOf(figures, 'reply_lag_ms', 0),
      conversations: ids.length,
      ...placement(ctx),
      note: `${String(common.note)}; posts over ${ids.length} conversations`,
    },
    targetsFor('post-messages', ctx),
  );
}
