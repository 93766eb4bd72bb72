import { randomBytes } from 'node:crypto';
import { AppProcess, startApp } from '../support/app-process';
import { POSTGRES_URL } from '../support/cluster-env';
import { randomApiKey } from '../support/keys';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { pollUntil, sleep } from '../support/wait';
import { ApiClient, expectStatus, Outcome } from '../support/api-client';
import { report } from '../support/report';

const TOTAL = 1000;
const KILL_AFTER = 500;
const CONCURRENCY = 8;
const PENDING_REPLIES = 10;
const ANSWER = 'Answered after the restart.';
/**
 * How long a client keeps retrying a key answered 409 (still held). A restart frees the claims of
 * the killed process on SQLite; on PostgreSQL, where another instance could be running the
 * request, they are taken over when their lease (10 s) runs out.
 */
const RETRY_DEADLINE_MS = 20_000;

type Response = Extract<Outcome, { kind: 'response' }>;

const isCreated = (outcome: Outcome | undefined): outcome is Response =>
  outcome?.kind === 'response' && outcome.status === 201;

/** Retries one create with its key, as a client would, while the key is still held (409). */
async function retryCreate(client: ApiClient, index: number, deadline: number) {
  let conflicts = 0;
  for (;;) {
    const res = await client.call('POST', '/workflows', createBody(index), {
      'Idempotency-Key': `create-${index}`,
    });
    if (res.kind === 'response' && res.status === 409 && Date.now() < deadline) {
      conflicts++;
      await sleep(250);
      continue;
    }
    return { res, conflicts };
  }
}

function createBody(index: number) {
  return { name: `crash-${index}`, description: `record ${index} of the crash test` };
}

async function inParallel(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        await work(next++);
      }
    }),
  );
}

describe.each([
  ['SQLite', ''],
  ['PostgreSQL', POSTGRES_URL],
])('a SIGKILL in the middle of 1,000 idempotent creates, on %s', (_label, postgresUrl) => {
  let llm: LlmStub;
  let database: TestDatabase;
  let server: AppProcess | undefined;
  let env: Record<string, string>;
  let key: string;

  beforeAll(async () => {
    llm = await startLlmStub();
    database = await createTestDatabase(postgresUrl);
    key = randomApiKey();
    env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000',
      LLM_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '5000',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    };
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    await llm?.close();
  });

  it('keeps every acknowledged record, creates no duplicate when all 1,000 keys are retried, and delivers pending replies after the restart', async () => {
    llm.behaviour = 'hang';
    server = await startApp(env, { name: 'before the crash' });
    let client = new ApiClient(server.url, key);
    const agent = await client.createAgent('Replies');

    // 1,000 creates with keys; the process is killed once half are acknowledged.
    const outcomes = Array.from({ length: TOTAL }, (): Outcome | undefined => undefined);
    let acknowledged = 0;
    let gone = false;
    const load = inParallel(TOTAL, CONCURRENCY, async (index) => {
      if (gone) {
        return;
      }
      const res = await client.call('POST', '/workflows', createBody(index), {
        'Idempotency-Key': `create-${index}`,
      });
      outcomes[index] = res;
      if (isCreated(res)) {
        acknowledged++;
      } else if (res.kind === 'no-response') {
        gone = true;
      }
    });
    await pollUntil(
      async () => acknowledged,
      (n) => n >= KILL_AFTER,
      60_000,
      5,
    );

    // User messages whose replies are being produced (the model hangs) when the kill comes.
    const sent = await Promise.all(
      Array.from({ length: PENDING_REPLIES }, (_, i) =>
        expectStatus(
          client.call(
            'POST',
            `/agents/${agent.id}/conversations/messages`,
            {
              message: `Question ${i}?`,
              channel_type: 'webchat',
              channel_user_id: `crash-user-${i}`,
            },
            { 'Idempotency-Key': `message-${i}` },
          ),
          201,
        ),
      ),
    );
    await pollUntil(
      async () => llm.requests.length,
      (n) => n >= PENDING_REPLIES,
      10_000,
      5,
    );
    const acknowledgedAtKill = acknowledged;
    await server.stop('SIGKILL');
    await load;
    client.close();
    expect(acknowledgedAtKill).toBeLessThan(TOTAL);

    llm.behaviour = 'answer';
    llm.answer = ANSWER;
    server = await startApp(env, { name: 'after the restart' });
    client = new ApiClient(server.url, key);

    // The replies that were pending at the kill are produced after the restart, once each.
    const conversationIds = sent.map((res) => res.body.data.conversation_id as string);
    const threadOf = async (conversationId: string) =>
      (
        await expectStatus(
          client.call('GET', `/agents/${agent.id}/conversations/${conversationId}/messages`),
          200,
        )
      ).body.data as Array<{ role: string; message: string }>;
    const replies = pollUntil(
      () => Promise.all(conversationIds.map(threadOf)),
      (all) => all.every((thread) => thread.length >= 2),
      30_000,
      100,
    );

    // Every acknowledged record is there.
    const stored = await client.listAll<{ id: string; name: string }>('/workflows');
    const storedIds = new Set(stored.map((record) => record.id));
    const acknowledgedIds = outcomes.filter(isCreated).map((res) => res.body.data.id as string);
    expect(acknowledgedIds.filter((id) => !storedIds.has(id))).toEqual([]);

    // Retrying every key: acknowledged ones replay byte for byte, the rest complete, once.
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    const retried = new Array<Outcome>(TOTAL);
    let conflicts = 0;
    const retryStarted = Date.now();
    await inParallel(TOTAL, CONCURRENCY, async (index) => {
      const result = await retryCreate(client, index, deadline);
      retried[index] = result.res;
      conflicts += result.conflicts;
    });
    const retryMs = Date.now() - retryStarted;
    if (postgresUrl === '') {
      // The one process of embedded mode frees every claim at start: no retry waits.
      expect(conflicts).toBe(0);
    }
    const notCreated = retried
      .map((res, index) => ({ index, res }))
      .filter(({ res }) => !isCreated(res));
    expect(notCreated).toEqual([]);
    const replayMismatches = outcomes
      .map((res, index) => ({ index, res }))
      .filter(({ res }) => isCreated(res))
      .filter(({ res, index }) => {
        const again = retried[index] as Response;
        return (
          again.headers['idempotent-replayed'] !== 'true' || again.text !== (res as Response).text
        );
      });
    expect(replayMismatches).toEqual([]);

    const after = await client.listAll<{ id: string; name: string }>('/workflows?search=crash-');
    const names = after.map((record) => record.name).filter((name) => /^crash-\d+$/.test(name));
    const duplicates = names.length - new Set(names).size;
    expect(duplicates).toBe(0);
    expect(new Set(names).size).toBe(TOTAL);

    const { value: threads, elapsedMs: repliesMs } = await replies;
    await sleep(500);
    const settled = await Promise.all(conversationIds.map(threadOf));
    expect(threads.every((thread) => thread.length >= 2)).toBe(true);
    settled.forEach((thread, i) =>
      expect(thread.map((m) => [m.role, m.message])).toEqual([
        ['user', `Question ${i}?`],
        ['assistant', ANSWER],
      ]),
    );
    client.close();

    const lost = outcomes.filter((res) => res?.kind === 'no-response').length;
    report('reliability', `crash (${_label})`, {
      acknowledged_before_kill: acknowledgedAtKill,
      acknowledged_total: acknowledgedIds.length,
      requests_without_response: lost,
      never_sent: outcomes.filter((res) => res === undefined).length,
      retry_409s_while_claims_held: conflicts,
      retry_all_keys_ms: retryMs,
      records_after_retry: new Set(names).size,
      duplicates,
      replies_delivered_after_restart: settled.filter((t) => t.length === 2).length,
      replies_ms_after_restart: repliesMs,
    });
  }, 180_000);
});
