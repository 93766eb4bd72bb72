import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { JobTable } from '@/database/jobs/job-table';
import { RetentionSweeper } from '@/database/jobs/retention';
import { ApiError } from '../http/api-error';
import { newId } from '../ids';
import { decideClaim, IDEMPOTENCY_LEASE_MS } from './claim-decision';
import { IdempotencyRecordEntity } from './idempotency-record.entity';

/**
 * A running request holds a key as a job is held (`JobTable`): its record with a lease, renewed
 * while it runs, and a token. A request that takes over a claim whose lease ran out gets a new
 * token, so the writes of the previous holder, which all match on its token, find nothing: it can
 * no longer store a response or release the key, and its work rolls back.
 */
export interface HeldKey {
  id: string;
  token: string;
}

export type Claim =
  | ({ kind: 'claimed' } & HeldKey)
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

const LEASE_RENEWAL_MS = 3_000;
const RELEASE_RETRY_MS = 250;
const CLAIM_ATTEMPTS = 4;

/** The claim's lease ran out and a retry took the key over: this run must not count. */
export class ClaimLostError extends ApiError {
  constructor() {
    super(
      409,
      'conflict',
      'A retry with this Idempotency-Key took over; this attempt was rolled back',
    );
  }
}

@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyStore.name);
  private readonly ttlMs: number;
  /** A key is claimable while a request runs under it and it has not expired. */
  private readonly claims: JobTable<IdempotencyRecordEntity>;
  /** Claims whose release the database could not take yet (it was away): retried until it can. */
  private readonly unreleased = new Map<string, HeldKey>();
  private releaseRetry?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    config: AppConfig,
    retention: RetentionSweeper,
  ) {
    this.ttlMs = config.idempotency.ttlS * 1000;
    this.claims = new JobTable(db, IdempotencyRecordEntity, {
      table: 'idempotency_keys',
      due: (params, now) => `state = 'in_progress' AND expires_at > ${params.add(now)}`,
      dueOrder: 'created_at',
    });
    // An expired record answers nothing any more: it goes at the first sweep, whatever its age.
    retention.register('expired idempotency keys', (_cutoff, limit) => this.purgeExpired(limit));
  }

  async onModuleInit(): Promise<void> {
    if (this.db.dialect.embedded) {
      await this.releaseAllClaims();
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.releaseRetry);
  }

  /** What a request with `fingerprint` may do under the key, asked at `at` (now by default). */
  async claim(teamId: string, key: string, fingerprint: string, at?: Date): Promise<Claim> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const now = at ?? new Date();
      const existing = await this.db.findOne(IdempotencyRecordEntity, { teamId, key });
      const decision = decideClaim(existing, fingerprint, now);
      switch (decision.kind) {
        case 'insert': {
          const held = await this.insertClaim(teamId, key, fingerprint, now);
          if (held) {
            return { kind: 'claimed', ...held };
          }
          break;
        }
        case 'purge_expired':
          await this.db.write(() => this.db.execute(PURGE_IF_EXPIRED, [decision.record.id, now]));
          break;
        case 'take_over': {
          const taken = await this.claims.claim(decision.record.id, IDEMPOTENCY_LEASE_MS, now);
          if (taken) {
            return { kind: 'claimed', id: taken.row.id, token: taken.token };
          }
          break;
        }
        case 'replay':
        case 'mismatch':
        case 'in_flight':
          return decision;
      }
    }
    return { kind: 'in_flight' };
  }

  /** The new claim, or null when a concurrent request inserted the key first. */
  private async insertClaim(
    teamId: string,
    key: string,
    fingerprint: string,
    now: Date,
  ): Promise<HeldKey | null> {
    const held = { id: newId(), token: randomUUID() };
    try {
      await this.db.insert(IdempotencyRecordEntity, [
        {
          id: held.id,
          teamId,
          key,
          fingerprint,
          state: 'in_progress',
          responseStatus: null,
          responseBody: null,
          leaseUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
          leaseToken: held.token,
          expiresAt: new Date(now.getTime() + this.ttlMs),
          createdAt: now,
        },
      ]);
      return held;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return null;
      }
      throw error;
    }
  }

  /**
   * Stores the response, only while the claim holds; joins the caller's transaction, so it commits
   * with the handler's work. Throws (rolling that work back) if the claim was taken over meanwhile.
   */
  async complete(held: HeldKey, status: number, body: string): Promise<void> {
    const settled = await this.claims.settle(held.id, held.token, {
      state: 'done',
      response_status: status,
      response_body: body,
    });
    if (!settled) {
      throw new ClaimLostError();
    }
  }

  /**
   * Frees the key of a request that failed, so that a retry can run. If the database cannot be told
   * now (the failure may be its outage), the release is retried until it can: otherwise the key
   * would answer 409 until its lease ran out, long after the database came back.
   */
  async release(held: HeldKey): Promise<void> {
    try {
      await this.claims.remove(held.id, held.token);
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not release an idempotency key yet; will retry');
      this.unreleased.set(held.token, held);
      this.releaseRetry ??= setInterval(() => void this.retryReleases(), RELEASE_RETRY_MS);
      this.releaseRetry.unref();
    }
  }

  private async retryReleases(): Promise<void> {
    for (const held of [...this.unreleased.values()]) {
      try {
        await this.db.detached(() => this.claims.remove(held.id, held.token));
      } catch {
        return;
      }
      this.unreleased.delete(held.token);
    }
    clearInterval(this.releaseRetry);
    this.releaseRetry = undefined;
  }

  /**
   * Renews the lease of a running request every few seconds until the returned function is
   * called, so that only the claims of requests that died run out: a request waiting on another
   * server holds no transaction, so nothing else keeps a duplicate out while it waits.
   */
  keepAlive(held: HeldKey): () => void {
    const timer = setInterval(() => void this.renew(held), LEASE_RENEWAL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async renew(held: HeldKey): Promise<void> {
    try {
      await this.db.detached(() => this.claims.renew(held.id, held.token, IDEMPOTENCY_LEASE_MS));
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not renew an idempotency claim');
    }
  }

  /** Frees every claim: used at start in embedded mode, where no other process can hold one. */
  private async releaseAllClaims(): Promise<void> {
    await this.db.delete(IdempotencyRecordEntity, { state: 'in_progress' });
  }

  /** Deletes up to `limit` expired records; how many. */
  async purgeExpired(limit: number, now = new Date()): Promise<number> {
    const { changes } = await this.db.write(() => this.db.execute(PURGE_EXPIRED, [now, limit]));
    return changes;
  }
}

const PURGE_IF_EXPIRED = 'DELETE FROM idempotency_keys WHERE id = $1 AND expires_at <= $2';

const PURGE_EXPIRED = `DELETE FROM idempotency_keys WHERE id IN
  (SELECT id FROM idempotency_keys WHERE expires_at <= $1 LIMIT $2)`;
