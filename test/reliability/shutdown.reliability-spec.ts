import { randomBytes } from 'node:crypto';
import { AppProcess, startApp } from '../support/app-process';
import { API, ApiClient, expectStatus, Outcome } from '../support/api-client';
import { randomApiKey } from '../support/keys';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { openStream, SseConnection } from '../support/sse-client';
import { pollUntil, sleep } from '../support/wait';
import { report } from '../support/report';

const STREAMS = 500;
const CONVERSATIONS = 50;
const WORKERS = 12;
const LOAD_BEFORE_SIGTERM_MS = 3_000;
/** The bound: SIGTERM to exit. */
const SHUTDOWN_BOUND_MS = 10_000;

type Kind = 'create' | 'message' | 'read' | 'stream';

interface Sent {
  kind: Kind;
  /** The write's Idempotency-Key, so that it can be asked about after the restart. */
  key?: string;
  conversationId?: string;
  sentAt: number;
  outcome: Outcome;
}

describe('graceful shutdown', () => {
  let database: TestDatabase;
  let server: AppProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('');
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it('on SIGTERM with 500 open streams and a request load: ends the streams cleanly, answers every request it took, exits within 10 s and loses nothing acknowledged', async () => {
    const key = randomApiKey();
    const env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000',
      STREAM_MAX_PER_SUBJECT: '2000',
    };
    server = await startApp(env, { name: 'before SIGTERM' });
    const client = new ApiClient(server.url, key, { maxSockets: 64 });
    // Every conversation opens with an operator's line and every reply is a hand-off (the agent
    // knows nothing): neither may pause the AI here, where each message is to be answered.
    const agent = await client.createAgent('Shutdown', {
      handoff_pauses_ai: false,
      operator_reply_pauses_ai: false,
    });
    const conversations: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const seeded = await expectStatus(
        client.call('POST', `/agents/${agent.id}/conversations/messages`, {
          message: 'seed',
          role: 'assistant',
          channel_type: 'webchat',
          channel_user_id: `shutdown-user-${i}`,
        }),
        201,
      );
      conversations.push(seeded.body.data.conversation_id);
    }
    const conversationPath = (conversationId: string) =>
      `/agents/${agent.id}/conversations/${conversationId}`;
    const open = async (conversationId: string): Promise<SseConnection> => {
      const ticket = await expectStatus(
        client.call('POST', `${conversationPath(conversationId)}/stream-ticket`),
        201,
      );
      return openStream(
        `${server!.url}${API}${conversationPath(conversationId)}/messages/stream?ticket=${ticket.body.data.ticket}`,
      );
    };
    const streams: SseConnection[] = [];
    for (let i = 0; i < STREAMS; i += 25) {
      streams.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, (_, j) => open(conversations[(i + j) % CONVERSATIONS])),
        )),
      );
    }
    expect(streams.filter((stream) => stream.status !== 200)).toEqual([]);

    // The load: creates and messages (with keys), reads, and new streams, until the server is gone.
    const sent: Sent[] = [];
    const lateStreams: SseConnection[] = [];
    let stopping = false;
    let counter = 0;
    const worker = async (w: number) => {
      for (let n = 0; ; n++) {
        const id = counter++;
        const kind: Kind = (['create', 'message', 'read', 'create', 'message', 'stream'] as const)[
          (n + w) % 6
        ];
        const conversationId = conversations[id % CONVERSATIONS];
        const sentAt = Date.now();
        let outcome: Outcome;
        let idempotencyKey: string | undefined;
        if (kind === 'create') {
          idempotencyKey = `shutdown-create-${id}`;
          outcome = await client.call(
            'POST',
            '/workflows',
            { name: `shutdown-${id}` },
            { 'Idempotency-Key': idempotencyKey },
          );
        } else if (kind === 'message') {
          idempotencyKey = `shutdown-message-${id}`;
          outcome = await client.call(
            'POST',
            `${conversationPath(conversationId)}/messages`,
            { message: `load ${id}` },
            { 'Idempotency-Key': idempotencyKey },
          );
        } else if (kind === 'read') {
          outcome = await client.call('GET', '/workflows?limit=5');
        } else {
          outcome = await client.call('POST', `${conversationPath(conversationId)}/stream-ticket`);
          if (outcome.kind === 'response' && outcome.status === 201) {
            const url = `${server!.url}${API}${conversationPath(conversationId)}/messages/stream?ticket=${outcome.body.data.ticket}`;
            await openStream(url).then(
              (stream) => lateStreams.push(stream),
              () => undefined,
            );
          }
        }
        sent.push({ kind, key: idempotencyKey, conversationId, sentAt, outcome });
        if (stopping && outcome.kind === 'no-response') {
          return;
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    await sleep(LOAD_BEFORE_SIGTERM_MS);

    const signalledAt = Date.now();
    stopping = true;
    const exited = new Promise<number | null>((resolve) =>
      server!.child.once('exit', (code) => resolve(code)),
    );
    server.child.kill('SIGTERM');
    const exitCode = await exited;
    const shutdownMs = Date.now() - signalledAt;
    await load;
    client.close();
    await Promise.all([...streams, ...lateStreams].map((stream) => stream.closed));

    // Streams end with their last chunk, not a cut connection; the process exits by itself, in time.
    expect({
      exitCode,
      withinBound: shutdownMs < SHUTDOWN_BOUND_MS,
      streamsCut: streams.filter((stream) => !stream.endedCleanly()).length,
      lateStreamsCut: lateStreams.filter((stream) => !stream.endedCleanly()).length,
    }).toEqual({ exitCode: 0, withinBound: true, streamsCut: 0, lateStreamsCut: 0 });

    // Every response that started came whole, and a request the server did not answer was refused
    // with the connection (the listener was closed), not cut on an open one. No 5xx but a clean 503.
    const during = sent.filter((request) => request.outcome.at >= signalledAt);
    const failed = (r: Sent) => (r.outcome.kind === 'no-response' ? r.outcome : null);
    expect(sent.filter((r) => failed(r) && failed(r)!.code !== 'ECONNREFUSED')).toEqual([]);
    const statuses = sent.map((r) => (r.outcome.kind === 'response' ? r.outcome.status : 0));
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);

    // After a restart: every acknowledged write is there, and no write that got no answer was done.
    server = await startApp(env, { name: 'after SIGTERM' });
    const after = new ApiClient(server.url, key);
    const writes = sent.filter((r) => r.key !== undefined);
    const acknowledged = writes.filter(
      (r) => r.outcome.kind === 'response' && r.outcome.status === 201,
    );
    const workflowIds = new Set(
      (await after.listAll<{ id: string }>('/workflows?search=shutdown-')).map((w) => w.id),
    );
    const messageIds = new Set<string>();
    const threads = new Map<string, Array<{ id: string; role: string; message: string }>>();
    for (const conversationId of conversations) {
      const thread = await after.listAll<{ id: string; role: string; message: string }>(
        `${conversationPath(conversationId)}/messages`,
      );
      threads.set(conversationId, thread);
      thread.forEach((message) => messageIds.add(message.id));
    }
    const missing = acknowledged.filter((r) => {
      const id = (r.outcome as Extract<Outcome, { kind: 'response' }>).body.data.id as string;
      return !(r.kind === 'create' ? workflowIds : messageIds).has(id);
    });
    expect(missing).toEqual([]);

    const unanswered = writes.filter((r) => r.outcome.kind === 'no-response');
    const doneWithoutAnswer: Sent[] = [];
    for (const request of unanswered) {
      const retry =
        request.kind === 'create'
          ? await after.call(
              'POST',
              '/workflows',
              { name: `shutdown-${request.key!.split('-').pop()}` },
              { 'Idempotency-Key': request.key! },
            )
          : await after.call(
              'POST',
              `${conversationPath(request.conversationId!)}/messages`,
              { message: `load ${request.key!.split('-').pop()}` },
              { 'Idempotency-Key': request.key! },
            );
      expect(retry).toMatchObject({ kind: 'response', status: 201 });
      if (retry.kind === 'response' && retry.headers['idempotent-replayed'] === 'true') {
        doneWithoutAnswer.push(request);
      }
    }
    expect(doneWithoutAnswer).toEqual([]);

    // Each acknowledged user message gets its reply, even those whose reply the shutdown cut off.
    const userMessages = acknowledged.filter((r) => r.kind === 'message').length;
    const { value: replies } = await pollUntil(
      async () => {
        let count = 0;
        for (const conversationId of conversations) {
          const thread = await after.listAll<{ role: string; message: string }>(
            `${conversationPath(conversationId)}/messages`,
          );
          count += thread.filter((m) => m.role === 'assistant' && m.message !== 'seed').length;
        }
        return count;
      },
      (count) => count >= userMessages + unanswered.filter((r) => r.kind === 'message').length,
      20_000,
      500,
    );
    after.close();
    expect(replies).toBe(userMessages + unanswered.filter((r) => r.kind === 'message').length);

    const count = (predicate: (r: Sent) => boolean) => sent.filter(predicate).length;
    report('reliability', 'graceful shutdown', {
      shutdown_ms: shutdownMs,
      exit_code: String(exitCode),
      streams_open_at_sigterm: STREAMS + lateStreams.length,
      streams_ended_cleanly: [...streams, ...lateStreams].filter((s) => s.endedCleanly()).length,
      requests: sent.length,
      requests_answered_after_sigterm: during.filter((r) => r.outcome.kind === 'response').length,
      acknowledged_writes: acknowledged.length,
      missing_after_restart: missing.length,
      refused_connection: count((r) => failed(r)?.code === 'ECONNREFUSED'),
      reset_on_reused_socket: count(
        (r) => failed(r)?.code !== 'ECONNREFUSED' && !!failed(r)?.reusedSocket,
      ),
      reset_on_new_socket: count(
        (r) => !!failed(r) && failed(r)?.code !== 'ECONNREFUSED' && !failed(r)?.reusedSocket,
      ),
      status_503: statuses.filter((status) => status === 503).length,
      unanswered_writes_done: doneWithoutAnswer.length,
      replies,
    });
  }, 180_000);
});
