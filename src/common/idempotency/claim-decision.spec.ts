import { decideClaim, IDEMPOTENCY_LEASE_MS } from './claim-decision';
import { IdempotencyRecordEntity } from './idempotency-record.entity';

const NOW = new Date('2030-01-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const later = (ms: number) => new Date(NOW.getTime() + ms);

function record(changes: Partial<IdempotencyRecordEntity> = {}): IdempotencyRecordEntity {
  return {
    id: 'held',
    teamId: 'team',
    key: 'key',
    fingerprint: 'same',
    state: 'in_progress',
    responseStatus: null,
    responseBody: null,
    leaseUntil: later(IDEMPOTENCY_LEASE_MS - 1_000),
    leaseToken: 'token',
    expiresAt: new Date(NOW.getTime() + 60_000),
    createdAt: ago(1_000),
    ...changes,
  };
}

describe('decideClaim', () => {
  it('inserts a claim for a key never seen', () => {
    expect(decideClaim(null, 'same', NOW)).toEqual({ kind: 'insert' });
  });

  it('answers in_flight while the holder renews its lease', () => {
    const held = record({ leaseUntil: NOW });

    expect(decideClaim(held, 'same', NOW)).toEqual({ kind: 'in_flight' });
  });

  it('takes over a claim whose lease ran out', () => {
    const abandoned = record({ leaseUntil: ago(1) });

    expect(decideClaim(abandoned, 'same', NOW)).toEqual({ kind: 'take_over', record: abandoned });
  });

  it('replays a completed response, whatever became of its lease', () => {
    const done = record({
      state: 'done',
      responseStatus: 201,
      responseBody: '{"id":1}',
      leaseUntil: null,
      leaseToken: null,
    });

    expect(decideClaim(done, 'same', NOW)).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":1}',
    });
  });

  it('rejects another request under the key as a mismatch, running or done', () => {
    const running = record();
    const done = record({ state: 'done', responseStatus: 200, responseBody: '{}' });

    expect(decideClaim(running, 'other', NOW)).toEqual({ kind: 'mismatch' });
    expect(decideClaim(done, 'other', NOW)).toEqual({ kind: 'mismatch' });
  });

  it('purges an expired record first, whatever request it held', () => {
    const expired = record({ state: 'done', fingerprint: 'other', expiresAt: NOW });

    expect(decideClaim(expired, 'same', NOW)).toEqual({ kind: 'purge_expired', record: expired });
  });
});
