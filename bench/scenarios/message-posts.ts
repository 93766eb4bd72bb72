import { API, ApiClient, ApiResponse } from '../../test/support/api-client';
import { runLoadSpread } from '../lib/load-runner';
import { LoadJob } from '../lib/load-protocol';
import { progress } from '../lib/log';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round } from '../lib/stats';
import { USER_MESSAGES } from '../lib/seed';
import { EmbeddedContext, originsOf, placement, targetsFor } from './context';
import { loadFigures } from './load-figures';

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

function postJob(ctx: EmbeddedContext, conversationIds: string[], durationS: number): LoadJob {
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

/**
 * Scenario 3: user messages posted over many conversations, each answered by the built-in
 * engine. Throughput is what got stored (messages and replies) over the time from the first
 * post to the last reply.
 */
export async function postMessages(ctx: EmbeddedContext): Promise<ScenarioLine> {
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
    );
    await settle(api, seed.agentId, warmIds, warmBefore + 2 * warm.ok);
  }
  const ids = seed.postConversationIds;
  const before = await countMessages(api, seed.agentId, ids);
  const result = await runLoadSpread(
    'post-messages',
    postJob(ctx, ids, sizes.durationS),
    originsOf(ctx),
  );
  progress('post-messages: waiting for the replies');
  const expected = before + 2 * result.ok;
  const after = await settle(api, seed.agentId, ids, expected);
  const lastAt = await newestMessageAt(api, seed.agentId, ids);
  const windowS = (lastAt - result.started_at) / 1000;
  const stored = after - before;
  return scenarioLine(
    'post-messages',
    {
      ...loadFigures(result, sizes, ctx.floors),
      messages_per_s: round(stored / windowS, 1),
      messages_stored: stored,
      user_messages_posted: result.ok,
      // The posts still in flight when the load stopped are stored too, hence "at least".
      replies_settled: after >= expected,
      window_s: round(windowS),
      reply_lag_ms: Math.max(0, lastAt - result.ended_at),
      conversations: ids.length,
      ...placement(ctx),
      note:
        `${sizes.connections} connections over ${ids.length} conversations, ${sizes.durationS} s; ` +
        `${stored} messages (posts + replies) stored in ${windowS.toFixed(1)} s`,
    },
    targetsFor('post-messages', ctx),
  );
}
