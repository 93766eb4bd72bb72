import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { ConfigService } from '@nestjs/config';
import { Environment } from '@/config/environment';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { newId } from '../ids';
import { IdempotencyRecordEntity } from './idempotency-record.entity';

export type Claim =
  | { kind: 'claimed'; id: string }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

/** A claim left unfinished this long belongs to a request that died; another may take it. */
export const IDEMPOTENCY_LOCK_TIMEOUT_MS = 30_000;
const PURGE_INTERVAL_MS = 10 * 60_000;
const CLAIM_ATTEMPTS = 4;

@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyStore.name);
  private readonly ttlMs: number;
  private purgeTimer?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    config: ConfigService<Environment, true>,
  ) {
    this.ttlMs = config.get('IDEMPOTENCY_TTL_S', { infer: true }) * 1000;
  }

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpiredQuietly(), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
    void this.purgeExpiredQuietly();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }

  async claim(teamId: string, key: string, fingerprint: string): Promise<Claim> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const now = new Date();
      const existing = await this.db.manager.findOneBy(IdempotencyRecordEntity, { teamId, key });
      if (!existing) {
        const id = newId();
        try {
          await this.db.transaction((manager) =>
            manager.insert(IdempotencyRecordEntity, {
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
          return { kind: 'claimed', id };
        } catch (error) {
          if (isUniqueViolation(error)) {
            continue;
          }
          throw error;
        }
      }
      if (existing.expiresAt <= now) {
        await this.db.transaction((manager) =>
          manager.delete(IdempotencyRecordEntity, {
            id: existing.id,
            expiresAt: LessThanOrEqual(now),
          }),
        );
        continue;
      }
      if (existing.fingerprint !== fingerprint) {
        return { kind: 'mismatch' };
      }
      if (existing.state === 'done') {
        return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody! };
      }
      if (now.getTime() - existing.lockedAt.getTime() < IDEMPOTENCY_LOCK_TIMEOUT_MS) {
        return { kind: 'in_flight' };
      }
      const takenOver = await this.db.transaction((manager) =>
        manager.update(
          IdempotencyRecordEntity,
          { id: existing.id, state: 'in_progress', lockedAt: existing.lockedAt },
          { lockedAt: now },
        ),
      );
      if ((takenOver.affected ?? 0) > 0) {
        return { kind: 'claimed', id: existing.id };
      }
    }
    return { kind: 'in_flight' };
  }

  /** Stores the response; joins the caller's transaction, so it commits with the handler's work. */
  async complete(id: string, status: number, body: string): Promise<void> {
    await this.db.transaction((manager) =>
      manager.update(
        IdempotencyRecordEntity,
        { id },
        { state: 'done', responseStatus: status, responseBody: body },
      ),
    );
  }

  async release(id: string): Promise<void> {
    await this.db.transaction((manager) =>
      manager.delete(IdempotencyRecordEntity, { id, state: 'in_progress' }),
    );
  }

  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.db.transaction((manager) =>
      manager.delete(IdempotencyRecordEntity, { expiresAt: LessThanOrEqual(now) }),
    );
    return result.affected ?? 0;
  }

  private async purgeExpiredQuietly(): Promise<void> {
    try {
      await this.purgeExpired();
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not purge expired idempotency keys');
    }
  }
}
