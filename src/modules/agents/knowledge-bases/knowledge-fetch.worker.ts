import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { KnowledgeFetchRepository } from './knowledge-fetch.repository';
import { PageFetcher } from './page-fetcher';

const SWEEP_INTERVAL_MS = 2_000;
const SWEEP_BATCH = 20;
/** Fetches run side by side on one instance at most this many at a time. */
const CONCURRENT_FETCHES = 4;
/** A fetch takes at most its time caps plus a few database round trips. */
const LEASE_MARGIN_MS = 10_000;
/** Claims that never settled (the process died mid-fetch) before the item is given up. */
const MAX_ATTEMPTS = 3;
const HOUR_MS = 3_600_000;

/**
 * Fetches URL items in the background. An item waits in its own row (`pending`, or fetched longer
 * ago than KNOWLEDGE_REFRESH_HOURS); a worker claims it with a lease, downloads the page with no
 * transaction open, then settles it in one transaction. A worker that dies leaves a lease that runs
 * out, and a sweep (on start and every few seconds, on every instance) takes the item again, so
 * each page is fetched once per request however many instances run.
 */
@Injectable()
export class KnowledgeFetchWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(KnowledgeFetchWorker.name);
  private readonly leaseMs: number;
  private readonly refreshMs: number;
  private readonly running = new Set<string>();
  private readonly waiting: Array<{ teamId: string; id: string }> = [];
  private sweeper?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly queue: KnowledgeFetchRepository,
    private readonly pages: PageFetcher,
    config: AppConfig,
  ) {
    this.leaseMs = pages.longestMs(CONCURRENT_FETCHES) + LEASE_MARGIN_MS;
    this.refreshMs = config.knowledge.refreshHours * HOUR_MS;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.db.kind === 'sqlite') {
      await this.queue.releaseAllLeases();
    }
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    void this.sweep();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
  }

  /** Fetches the item soon (called once the request that made it due has committed). */
  schedule(teamId: string, id: string): void {
    if (this.stopped || this.running.has(id) || this.waiting.some((item) => item.id === id)) {
      return;
    }
    this.waiting.push({ teamId, id });
    this.drain();
  }

  private drain(): void {
    while (!this.stopped && this.running.size < CONCURRENT_FETCHES && this.waiting.length > 0) {
      const { teamId, id } = this.waiting.shift()!;
      this.running.add(id);
      void this.process(teamId, id)
        .catch((error: unknown) =>
          this.logger.error({ err: error, knowledge_base_id: id }, 'Fetch failed; will retry'),
        )
        .finally(() => {
          this.running.delete(id);
          this.drain();
        });
    }
  }

  private refreshBefore(): Date | null {
    return this.refreshMs > 0 ? new Date(Date.now() - this.refreshMs) : null;
  }

  private async sweep(): Promise<void> {
    try {
      for (const item of await this.queue.dueItems(SWEEP_BATCH, this.refreshBefore())) {
        this.schedule(item.teamId, item.id);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not look for knowledge pages to fetch');
    }
  }

  private async process(teamId: string, id: string): Promise<void> {
    const token =
      !this.stopped && (await this.queue.claim(teamId, id, this.leaseMs, this.refreshBefore()));
    if (!token) {
      return;
    }
    const item = await this.queue.find(teamId, id);
    if (!item?.url) {
      return;
    }
    const outcome =
      item.fetchAttempts > MAX_ATTEMPTS
        ? { error: `fetching the page was interrupted ${MAX_ATTEMPTS} times` }
        : await this.pages.textOf(item.url);
    const settled = await this.queue.settleFetch(item, token, outcome);
    if (settled) {
      this.logger.log(
        { knowledge_base_id: id, status: settled.status, error: settled.error },
        'Knowledge page fetched',
      );
    }
  }
}
