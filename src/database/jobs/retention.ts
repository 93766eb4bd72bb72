import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '../database.service';
import { PeriodicTask } from './periodic-task';

/** Deletes up to `limit` records of one kind that finished before `cutoff`; how many it deleted. */
export type Purge = (cutoff: Date, limit: number) => Promise<number>;

const DAY_MS = 86_400_000;
const INTERVAL_MS = 3_600_000;
const LEASE_MS = 600_000;
const BATCH = 500;

/**
 * Retention: once an hour, one instance deletes the records that finished more than RETENTION_DAYS
 * ago (delivered webhook events and deliveries, expired idempotency records…). Each module
 * registers the purge of its own tables; a purge deletes in batches, each a short statement of its
 * own, so no transaction is held long and requests go on between batches.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionSweeper.name);
  private readonly purges = new Map<string, Purge>();
  private readonly task: PeriodicTask;
  private readonly retentionMs: number;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(db: Database, config: AppConfig) {
    this.retentionMs = config.retention.days * DAY_MS;
    this.task = new PeriodicTask(db, 'retention', INTERVAL_MS, LEASE_MS);
  }

  /** `purge` runs at every sweep; `name` says in the log what it deletes. */
  register(name: string, purge: Purge): void {
    this.purges.set(name, purge);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), INTERVAL_MS / 4);
    this.timer.unref();
    void this.sweep();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Runs the purges if the task is due and no instance runs it; whether this one did. */
  async sweep(): Promise<boolean> {
    try {
      return await this.task.runIfDue(() => this.purgeAll(new Date(Date.now() - this.retentionMs)));
    } catch (error) {
      this.logger.warn({ err: error }, 'Retention sweep failed; it runs again later');
      return false;
    }
  }

  private async purgeAll(cutoff: Date): Promise<void> {
    for (const [name, purge] of this.purges) {
      let deleted = 0;
      for (let batch = BATCH; batch === BATCH && !this.stopped;) {
        batch = await purge(cutoff, BATCH);
        deleted += batch;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (deleted > 0) {
        this.logger.log({ deleted, cutoff: cutoff.toISOString() }, `Retention: ${name} deleted`);
      }
    }
  }
}
