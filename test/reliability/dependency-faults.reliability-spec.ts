import { randomBytes } from 'node:crypto';
import { AppProcess, startApp } from '../support/app-process';
import { RedisServer, startRedisServer } from '../support/redis-server';
import { randomApiKey } from '../support/keys';
import { pollUntil, sleep } from '../support/wait';
import { ApiClient, Outcome } from '../support/api-client';
import { PostgresServer, startPostgresServer } from './support/postgres-server';
import { report } from '../support/report';

const WORKERS = 6;
const LOAD_BEFORE_MS = 1_500;
const DOWN_MS = 3_000;
const LOAD_AFTER_MS = 6_000;
/** The bound: full recovery within 5 s of the dependency's return. */
const RECOVERY_BOUND_MS = 5_000;

interface Sent {
  instance: number;
  /** The create's Idempotency-Key; absent for reads. */
  key?: string;
  sentAt: number;
  outcome: Outcome;
}

type Answered = Extract<Outcome, { kind: 'response' }>;

/** How many requests got each kind of answer, e.g. { '500 internal_error': 3, 'ECONNRESET': 1 }. */
function tally(requests: Sent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { outcome } of requests) {
    const label =
      outcome.kind === 'response'
        ? `${outcome.status} ${(outcome.body as { code?: string } | undefined)?.code ?? ''}`.trim()
        : outcome.code;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

const succeeded = (outcome: Outcome) =>
  outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;

/** The contract's 503: `internal_error` with every field of the Error body. */
function isCleanUnavailable(outcome: Outcome): boolean {
  if (outcome.kind !== 'response' || outcome.status !== 503) {
    return false;
  }
  const body = outcome.body as Record<string, unknown> | undefined;
  return (
    body?.code === 'internal_error' &&
    body.statusCode === 503 &&
    body.error === 'Service Unavailable' &&
    typeof body.message === 'string' &&
    body.request_id === outcome.headers['x-request-id']
  );
}

/**
 * Creates with keys and reads, spread over the instances, until stopped. A create refused with
 * 503 (or 409 while its key is still held) is retried later with the same key, as a client would.
 */
function startLoad(clients: ApiClient[], label: string) {
  const sent: Sent[] = [];
  const owed = new Set<string>();
  const acknowledged = new Map<string, string>();
  let stopped = false;
  let counter = 0;
  const create = async (instance: number, key: string) => {
    const sentAt = Date.now();
    const outcome = await clients[instance].call(
      'POST',
      '/workflows',
      { name: key },
      { 'Idempotency-Key': key },
    );
    sent.push({ instance, key, sentAt, outcome });
    if (outcome.kind === 'response' && outcome.status === 201) {
      owed.delete(key);
      acknowledged.set(key, (outcome.body as { data: { id: string } }).data.id);
    } else {
      owed.add(key);
    }
  };
  const worker = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const instance = (n + w) % clients.length;
      const retry = [...owed].find((key) => Number(key.split('-').pop()) % WORKERS === w);
      if (retry !== undefined && n % 2 === 0) {
        await create(instance, retry);
      } else if (n % 3 === 2) {
        const sentAt = Date.now();
        const outcome = await clients[instance].call('GET', '/workflows?limit=1');
        sent.push({ instance, sentAt, outcome });
      } else {
        const id = counter++;
        await create(instance, `${label}-${id * WORKERS + w}`);
      }
      await sleep(5);
    }
  };
  const running = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  return {
    sent,
    owed,
    acknowledged,
    async stop() {
      stopped = true;
      await running;
    },
    /** Retries every create still owed until it succeeds or `timeoutMs` passes. */
    async settle(timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (owed.size > 0 && Date.now() < deadline) {
        await Promise.all([...owed].map((key, i) => create(i % clients.length, key)));
        if (owed.size > 0) {
          await sleep(200);
        }
      }
    },
  };
}

/** Polls /readyz of an instance until it answers `status`; returns when, from `since`. */
async function readyzReaches(instance: AppProcess, status: number, since: number): Promise<number> {
  const { value } = await pollUntil(
    () =>
      fetch(`${instance.url}/readyz`).then(
        async (res) => ({
          status: res.status,
          body: (await res.json()) as Record<string, unknown>,
        }),
        () => ({ status: 0, body: {} }),
      ),
    (res) => res.status === status,
    15_000,
    50,
  );
  if (value.status !== status) {
    throw new Error(`/readyz of ${instance.name} stayed ${value.status}, never ${status}`);
  }
  if (status === 503) {
    expect(value.body).toMatchObject({ code: 'internal_error', statusCode: 503 });
  }
  return Date.now() - since;
}

describe('dependency faults in cluster mode: two instances on a PostgreSQL and a Redis of their own', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let instances: AppProcess[] = [];
  let clients: ApiClient[] = [];

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'faults:',
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000',
    };
    instances = await Promise.all([startApp(env, { name: 'A' }), startApp(env, { name: 'B' })]);
    clients = instances.map((instance) => new ApiClient(instance.url, env.CONSOLE_BOOTSTRAP_KEY));
  }, 60_000);
  afterAll(async () => {
    clients.forEach((client) => client.close());
    await Promise.all(instances.map((instance) => instance.stop()));
    await redis?.stop();
    await postgres?.destroy();
  });

  it.each([
    ['PostgreSQL', () => postgres],
    ['Redis', () => redis],
  ])(
    '%s stopped and restarted under load: clear 503s while down, /readyz follows, full recovery within 5 s, no acknowledged write lost',
    async (name, dependency) => {
      const load = startLoad(clients, name.toLowerCase());
      await sleep(LOAD_BEFORE_MS);

      const stopping = Date.now();
      await dependency().stop();
      const downAt = Date.now();
      const notReadyMs = await Promise.all(
        instances.map((instance) => readyzReaches(instance, 503, downAt)),
      );
      await sleep(DOWN_MS);

      const returning = Date.now();
      await dependency().start();
      const backAt = Date.now();
      const readyMs = await Promise.all(
        instances.map((instance) => readyzReaches(instance, 200, backAt)),
      );
      await sleep(LOAD_AFTER_MS);
      await load.stop();
      await load.settle(10_000);

      const { sent } = load;
      // While it was down (sent after it stopped, answered before it came back): a clean 503 each.
      const whileDown = sent.filter((r) => r.sentAt >= downAt && r.outcome.at <= returning);
      expect(tally(whileDown.filter((r) => !isCleanUnavailable(r.outcome)))).toEqual({});
      // At any time: a success or a clean 503 (or 409 for a key whose first try is still held).
      const unclean = sent.filter(
        (r) =>
          !succeeded(r.outcome) &&
          !isCleanUnavailable(r.outcome) &&
          !(r.outcome.kind === 'response' && r.outcome.status === 409),
      );
      expect(tally(unclean)).toEqual({});

      // Recovery: after this long from its return, every request succeeded, on both instances.
      const failedAfter = sent.filter((r) => r.sentAt >= backAt && !succeeded(r.outcome));
      const fullRecoveryMs = Math.max(0, ...failedAfter.map((r) => r.outcome.at - backAt));
      const firstSuccessMs = instances.map((_, i) =>
        Math.min(
          ...sent
            .filter((r) => r.instance === i && r.sentAt >= backAt && succeeded(r.outcome))
            .map((r) => r.outcome.at - backAt),
        ),
      );
      expect(load.owed).toEqual(new Set());
      // (When it fails, the answers that came later than the bound are listed.)
      expect(
        fullRecoveryMs < RECOVERY_BOUND_MS ||
          tally(failedAfter.filter((r) => r.outcome.at - backAt >= RECOVERY_BOUND_MS)),
      ).toBe(true);
      expect(Math.max(...readyMs)).toBeLessThan(RECOVERY_BOUND_MS);

      // Nothing acknowledged is lost, and no create happened twice.
      const stored = await clients[0].listAll<{ id: string; name: string }>(
        `/workflows?search=${name.toLowerCase()}-`,
      );
      const storedIds = new Set(stored.map((record) => record.id));
      const lost = [...load.acknowledged.values()].filter((id) => !storedIds.has(id));
      expect(lost).toEqual([]);
      const names = stored.map((record) => record.name);
      expect(names.length - new Set(names).size).toBe(0);
      expect(new Set(names)).toEqual(new Set(load.acknowledged.keys()));

      const count = (rs: Sent[], predicate: (outcome: Outcome) => boolean) =>
        rs.filter((r) => predicate(r.outcome)).length;
      report('reliability', `${name} outage`, {
        stop_ms: downAt - stopping,
        start_ms: backAt - returning,
        readyz_503_after_ms: notReadyMs.join('/'),
        requests: sent.length,
        requests_while_down: whileDown.length,
        status_503_while_down: count(whileDown, (o) => isCleanUnavailable(o)),
        status_503_total: count(sent, (o) => isCleanUnavailable(o)),
        status_409_total: count(sent, (o) => o.kind === 'response' && o.status === 409),
        readyz_200_after_ms: readyMs.join('/'),
        first_success_after_ms: firstSuccessMs.join('/'),
        full_recovery_after_ms: fullRecoveryMs,
        acknowledged_writes: load.acknowledged.size,
        lost: lost.length,
        status_of_first_while_down: (whileDown[0]?.outcome as Answered | undefined)?.status ?? '-',
      });
    },
    90_000,
  );
});
