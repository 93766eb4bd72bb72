import { IdempotencyRecordEntity } from './idempotency-record.entity';

/** A claim not renewed for this long belongs to a request that died; another may take it. */
export const IDEMPOTENCY_LEASE_MS = 10_000;

type KeyRecord = Pick<
  IdempotencyRecordEntity,
  'fingerprint' | 'state' | 'responseStatus' | 'responseBody' | 'leaseUntil' | 'expiresAt'
>;

/** What a request with `fingerprint` does with its key, given the key's record at `now`. */
export type ClaimDecision<R extends KeyRecord> =
  | { kind: 'insert' }
  | { kind: 'purge_expired'; record: R }
  | { kind: 'take_over'; record: R }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

export function decideClaim<R extends KeyRecord>(
  record: R | null,
  fingerprint: string,
  now: Date,
): ClaimDecision<R> {
  if (!record) {
    return { kind: 'insert' };
  }
  if (record.expiresAt <= now) {
    return { kind: 'purge_expired', record };
  }
  if (record.fingerprint !== fingerprint) {
    return { kind: 'mismatch' };
  }
  if (record.state === 'done') {
    return { kind: 'replay', status: record.responseStatus!, body: record.responseBody! };
  }
  // Held until the lease has passed, as the job base reads a lease (`JobTable`).
  if (record.leaseUntil && record.leaseUntil.getTime() >= now.getTime()) {
    return { kind: 'in_flight' };
  }
  return { kind: 'take_over', record };
}
