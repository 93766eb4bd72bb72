import { RetentionSweeper } from '@/database/jobs/retention';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { IDEMPOTENCY_LEASE_MS } from './claim-decision';
import { IdempotencyRecordEntity } from './idempotency-record.entity';
import { ClaimLostError, IdempotencyStore } from './idempotency.store';

type Row = IdempotencyRecordEntity;
type Where = Partial<Row>;

const matches = (row: Row, where: Where) =>
  Object.entries(where).every(([column, value]) => {
    const held = row[column as keyof Row];
    return value instanceof Date ? (held as Date).getTime() === value.getTime() : held === value;
  });

/** The idempotency_keys table, with the few manager calls the store makes on it. */
class FakeKeys {
  readonly rows: Row[] = [];

  async findOneBy(_entity: unknown, where: Where): Promise<Row | null> {
    const row = this.rows.find((candidate) => matches(candidate, where));
    return row ? { ...row } : null;
  }

  async insert(_entity: unknown, row: Row): Promise<void> {
    this.rows.push({ ...row });
  }

  async update(_entity: unknown, where: Where, changes: Where): Promise<{ affected: number }> {
    const hits = this.rows.filter((row) => matches(row, where));
    hits.forEach((row) => Object.assign(row, changes));
    return { affected: hits.length };
  }

  async delete(_entity: unknown, where: Where): Promise<{ affected: number }> {
    const kept = this.rows.filter((row) => !matches(row, where));
    const affected = this.rows.length - kept.length;
    this.rows.splice(0, this.rows.length, ...kept);
    return { affected };
  }
}

describe('IdempotencyStore', () => {
  let keys: FakeKeys;
  let store: IdempotencyStore;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') });
    keys = new FakeKeys();
    const db = {
      kind: 'postgres',
      manager: keys,
      transaction: (work: () => unknown) => work(),
      write: (work: () => unknown) => work(),
      detached: (work: () => unknown) => work(),
    };
    const config = { idempotency: { ttlS: 86_400 } } as AppConfig;
    const retention = { register: () => undefined } as unknown as RetentionSweeper;
    store = new IdempotencyStore(db as unknown as Database, config, retention);
  });

  afterEach(() => jest.useRealTimers());

  async function claimedId(fingerprint = 'create agent'): Promise<string> {
    const claim = await store.claim('team', 'key', fingerprint);
    if (claim.kind !== 'claimed') {
      throw new Error(`expected a claim, got ${claim.kind}`);
    }
    return claim.id;
  }

  it('takes over a claim whose lease ran out, under a new id', async () => {
    const first = await claimedId();
    jest.advanceTimersByTime(IDEMPOTENCY_LEASE_MS);

    const second = await claimedId();

    expect(second).not.toBe(first);
    expect(keys.rows.map((row) => row.id)).toEqual([second]);
  });

  it('leaves the holder overtaken unable to store its response or free the key', async () => {
    const first = await claimedId();
    jest.advanceTimersByTime(IDEMPOTENCY_LEASE_MS);
    const second = await claimedId();

    await expect(store.complete(first, 201, '{"late":true}')).rejects.toThrow(ClaimLostError);
    await store.release(first);
    expect(await store.claim('team', 'key', 'create agent')).toEqual({ kind: 'in_flight' });

    await store.complete(second, 201, '{"id":"b"}');
    expect(await store.claim('team', 'key', 'create agent')).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":"b"}',
    });
  });

  it('answers in_flight for as long as the holder keeps its claim alive', async () => {
    const first = await claimedId();
    const stop = store.keepAlive(first);

    await jest.advanceTimersByTimeAsync(IDEMPOTENCY_LEASE_MS * 3);

    expect(await store.claim('team', 'key', 'create agent')).toEqual({ kind: 'in_flight' });
    stop();
  });

  it('frees the key of a failed request at once, for a retry to run', async () => {
    await store.release(await claimedId());

    expect((await store.claim('team', 'key', 'create agent')).kind).toBe('claimed');
  });

  it('rejects another request under a key in use as a mismatch', async () => {
    await claimedId('create agent');

    expect(await store.claim('team', 'key', 'delete agent')).toEqual({ kind: 'mismatch' });
  });
});
