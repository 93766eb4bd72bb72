import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { RetentionSweeper } from '@/database/jobs/retention';
import { ApiError } from '../http/api-error';
import { newId } from '../ids';
import { decideClaim } from './claim-decision';
import { IdempotencyRecordEntity } from './idempotency-record.entity';

/**
 * A running request holds a key through its record id. The holder renews `locked_at` (its lease);
 * a request that takes over a claim whose lease ran out gives the record a new id, so the writes of
 * the previous holder, which all match on the id, find nothing: it can no longer store a response
 * or release the key, and its work rolls back.
 */
export type Claim =
  | { kind: 'claimed'; id: string }
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
  /** Claims whose release the database could not take yet (it was away): retried until it can. */
  private readonly unreleased = new Set<string>();
  private releaseRetry?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    config: AppConfig,
    retention: RetentionSweeper,
  ) {
    this.ttlMs = config.idempotency.ttlS * 1000;
    // An expired record answers nothing any more: it goes at the first sweep, whatever its age.
    retention.register('expired idempotency keys', (_cutoff, limit) => this.purgeExpired(limit));
  }

  async onModuleInit(): Promise<void> {
    if (this.db.kind === 'sqlite') {
      await this.releaseAllClaims();
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.releaseRetry);
  }

  async claim(teamId: string, key: string, fingerprint: string): Promise<Claim> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const now = new Date();
      const existing = await this.db.manager.findOneBy(IdempotencyRecordEntity, { teamId, key });
      const decision = decideClaim(existing, fingerprint, now);
      switch (decision.kind) {
        case 'insert': {
          const id = await this.insertClaim(teamId, key, fingerprint, now);
          if (id) {
            return { kind: 'claimed', id };
          }
          break;
        }
        case 'purge_expired':
          await this.db.write(() =>
            this.db.manager.delete(IdempotencyRecordEntity, {
              id: decision.record.id,
              expiresAt: LessThanOrEqual(now),
            }),
          );
          break;
        case 'take_over': {
          const id = await this.takeOver(decision.record, now);
          if (id) {
            return { kind: 'claimed', id };
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

  /** The new claim's id, or null when a concurrent request inserted the key first. */
  private async insertClaim(
    teamId: string,
    key: string,
    fingerprint: string,
    now: Date,
  ): Promise<string | null> {
    const id = newId();
    try {
      await this.db.write(() =>
        this.db.manager.insert(IdempotencyRecordEntity, {
          id,
          teamId,
          key,
          fingerprint,
          state: 'in_progress',
          responseStatus: null,
          responseBody: null,
          lockedAt: now,
          expiresAt: new Date(now.getTime() + this.ttlMs),
          createdAt: now,
        }),
      );
      return id;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return null;
      }
      throw error;
    }
  }

  /** The claim's new id, or null when another request renewed or took it over first. */
  private async takeOver(record: IdempotencyRecordEntity, now: Date): Promise<string | null> {
    const id = newId();
    const takenOver = await this.db.write(() =>
      this.db.manager.update(
        IdempotencyRecordEntity,
        { id: record.id, state: 'in_progress', lockedAt: record.lockedAt },
        { id, lockedAt: now },
      ),
    );
    return (takenOver.affected ?? 0) > 0 ? id : null;
  }

  /**
   * Stores the response; joins the caller's transaction, so it commits with the handler's work.
   * Throws (rolling that work back) if the claim was taken over meanwhile.
   */
  async complete(id: string, status: number, body: string): Promise<void> {
    const result = await this.db.write(() =>
      this.db.manager.update(
        IdempotencyRecordEntity,
        { id, state: 'in_progress' },
        { state: 'done', responseStatus: status, responseBody: body },
      ),
    );
    if ((result.affected ?? 0) === 0) {
      throw new ClaimLostError();
    }
  }

  /**
   * Frees the key of a request that failed, so that a retry can run. If the database cannot be told
   * now (the failure may be its outage), the release is retried until it can: otherwise the key
   * would answer 409 until its lease ran out, long after the database came back.
   */
  async release(id: string): Promise<void> {
    try {
      await this.deleteClaim(id);
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not release an idempotency key yet; will retry');
      this.unreleased.add(id);
      this.releaseRetry ??= setInterval(() => void this.retryReleases(), RELEASE_RETRY_MS);
      this.releaseRetry.unref();
    }
  }

  private async retryReleases(): Promise<void> {
    for (const id of [...this.unreleased]) {
      try {
        await this.db.detached(() => this.deleteClaim(id));
      } catch {
        return;
      }
      this.unreleased.delete(id);
    }
    clearInterval(this.releaseRetry);
    this.releaseRetry = undefined;
  }

  /** Deletes the claim if this holder still has it (a takeover gave it another id). */
  private async deleteClaim(id: string): Promise<void> {
    await this.db.write(() =>
      this.db.manager.delete(IdempotencyRecordEntity, { id, state: 'in_progress' }),
    );
  }

  /**
   * Renews the lease of a running request every few seconds until the returned function is
   * called, so that only the claims of requests that died run out: a request waiting on another
   * server holds no transaction, so nothing else keeps a duplicate out while it waits.
   */
  keepAlive(id: string): () => void {
    const timer = setInterval(() => void this.renew(id), LEASE_RENEWAL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async renew(id: string): Promise<void> {
    try {
      await this.db.detached(() =>
        this.db.write(() =>
          this.db.manager.update(
            IdempotencyRecordEntity,
            { id, state: 'in_progress' },
            { lockedAt: new Date() },
          ),
        ),
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not renew an idempotency claim');
    }
  }

  /** Frees every claim: used at start in embedded mode, where no other process can hold one. */
  private async releaseAllClaims(): Promise<void> {
    await this.db.write(() =>
      this.db.manager.delete(IdempotencyRecordEntity, { state: 'in_progress' }),
    );
  }

  /** Deletes up to `limit` expired records; how many. */
  async purgeExpired(limit: number, now = new Date()): Promise<number> {
    const { changes } = await this.db.write(() =>
      this.db.execute(
        `DELETE FROM idempotency_keys WHERE id IN
           (SELECT id FROM idempotency_keys WHERE expires_at <= $1 LIMIT $2)`,
        [now, limit],
      ),
    );
    return changes;
  }
}
