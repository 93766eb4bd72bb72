import { IDEMPOTENCY_LEASE_MS } from '@/common/idempotency/claim-decision';
import { IdempotencyRecordEntity } from '@/common/idempotency/idempotency-record.entity';
import { ClaimLostError, HeldKey, IdempotencyStore } from '@/common/idempotency/idempotency.store';
import { Database } from '@/database/database.service';
import { startTestApp, TestApp } from '../factories/test-app';
import { pollUntil } from '../support/wait';

/**
 * The idempotency store's claims on a real database, driven directly: a key is held as a job is
 * (lease and token), and only the current holder's token settles it.
 */
describe('idempotency claims', () => {
  let t: TestApp;
  let store: IdempotencyStore;
  let teamId: string;
  let keys = 0;

  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get(IdempotencyStore);
    teamId = (await t.createKey('claims', ['*'])).teamId;
  });
  afterAll(() => t.close());

  const later = (ms: number) => new Date(Date.now() + ms);
  const record = (key: string) =>
    t.app.get(Database).findOne(IdempotencyRecordEntity, { teamId, key });

  async function claimed(key: string, at?: Date, fingerprint = 'create agent'): Promise<HeldKey> {
    const claim = await store.claim(teamId, key, fingerprint, at);
    if (claim.kind !== 'claimed') {
      throw new Error(`expected a claim, got ${claim.kind}`);
    }
    return claim;
  }

  it('takes over a claim whose lease ran out, under a new token', async () => {
    const key = `key-${++keys}`;
    const first = await claimed(key);
    const second = await claimed(key, later(IDEMPOTENCY_LEASE_MS + 1));

    expect(second.id).toBe(first.id);
    expect(second.token).not.toBe(first.token);
    expect((await record(key))!.leaseToken).toBe(second.token);
  });

  it('does not let an expired claim settle over the outcome of the claim that took over', async () => {
    const key = `key-${++keys}`;
    const first = await claimed(key);
    const second = await claimed(key, later(IDEMPOTENCY_LEASE_MS + 1));

    await store.complete(second, 201, '{"id":"second"}');
    await expect(store.complete(first, 500, '{"id":"first"}')).rejects.toBeInstanceOf(
      ClaimLostError,
    );
    await store.release(first);

    expect(await store.claim(teamId, key, 'create agent')).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":"second"}',
    });
  });

  it('leaves the holder overtaken unable to store its response or free the key', async () => {
    const key = `key-${++keys}`;
    const first = await claimed(key);
    const takeover = later(IDEMPOTENCY_LEASE_MS + 1);
    const second = await claimed(key, takeover);

    await expect(store.complete(first, 201, '{"late":true}')).rejects.toBeInstanceOf(
      ClaimLostError,
    );
    await store.release(first);
    expect(await store.claim(teamId, key, 'create agent', takeover)).toEqual({
      kind: 'in_flight',
    });

    await store.complete(second, 201, '{"id":"b"}');
    expect(await store.claim(teamId, key, 'create agent')).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":"b"}',
    });
  });

  it('answers in_flight for as long as the holder keeps its claim alive', async () => {
    const key = `key-${++keys}`;
    const held = await claimed(key);
    const leaseBefore = (await record(key))!.leaseUntil!.getTime();
    // Only the renewal's interval is faked: the database calls run for real.
    jest.useFakeTimers({ doNotFake: ['Date', 'nextTick', 'setImmediate', 'setTimeout'] });
    try {
      const stop = store.keepAlive(held);
      jest.advanceTimersByTime(IDEMPOTENCY_LEASE_MS / 2);
      stop();
    } finally {
      jest.useRealTimers();
    }
    const { value: renewed } = await pollUntil(
      async () => (await record(key))!.leaseUntil!.getTime(),
      (lease) => lease > leaseBefore,
      2_000,
      20,
    );

    expect(renewed).toBeGreaterThan(leaseBefore);
    expect(await store.claim(teamId, key, 'create agent')).toEqual({ kind: 'in_flight' });
  });

  it('frees the key of a failed request at once, for a retry to run', async () => {
    const key = `key-${++keys}`;
    await store.release(await claimed(key));

    expect((await store.claim(teamId, key, 'create agent')).kind).toBe('claimed');
  });

  it('rejects another request under a key in use as a mismatch', async () => {
    const key = `key-${++keys}`;
    await claimed(key);

    expect(await store.claim(teamId, key, 'delete agent')).toEqual({ kind: 'mismatch' });
  });
});
