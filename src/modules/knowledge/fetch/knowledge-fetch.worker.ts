import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { KnowledgeBaseEntity } from '../entities/knowledge-base.entity';
import { KnowledgeFetchRepository } from './knowledge-fetch.repository';
import { KnowledgeFetchService } from './knowledge-fetch.service';
import { PageFetcher } from './page-fetcher';

/** Fetches run side by side on one instance at most this many at a time, and of one team. */
const CONCURRENT_FETCHES = 4;
const PER_TEAM = 2;
/** A fetch takes at most its time caps plus a few database round trips. */
const LEASE_MARGIN_MS = 10_000;
/** Claims that never settled (the process died mid-fetch) before the item is given up. */
const MAX_ATTEMPTS = 3;

/**
 * Fetches URL items in the background. An item waits in its own row (`pending`, or fetched longer
 * ago than KNOWLEDGE_REFRESH_HOURS) and is a job (see `JobWorker`): claimed with a lease, its page
 * downloaded with no transaction open, then settled in one transaction while the claim holds (a
 * new request to fetch, or a changed URL, voids the claim). Teams take turns: a team's slow pages
 * hold at most `PER_TEAM` of the slots.
 */
@Injectable()
export class KnowledgeFetchWorker extends JobWorker<QueuedJob, KnowledgeBaseEntity> {
  protected readonly logger = new Logger(KnowledgeFetchWorker.name);

  constructor(
    db: Database,
    private readonly queue: KnowledgeFetchRepository,
    private readonly fetches: KnowledgeFetchService,
    private readonly pages: PageFetcher,
  ) {
    super(db, {
      concurrency: CONCURRENT_FETCHES,
      perTeam: PER_TEAM,
      leaseMs: pages.longestMs(CONCURRENT_FETCHES) + LEASE_MARGIN_MS,
      sweepIntervalMs: 2_000,
      sweepGraceMs: 0,
    });
  }

  protected findDue(limit: number, perTeam: number, dueBy: Date): Promise<KnowledgeBaseEntity[]> {
    return this.queue.due(limit, perTeam, dueBy);
  }

  protected claim(job: QueuedJob): Promise<Claim<KnowledgeBaseEntity> | null> {
    return this.queue.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: QueuedJob, claim: Claim<KnowledgeBaseEntity>): Promise<boolean> {
    return this.queue.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.queue.releaseAllLeases();
  }

  protected async perform(job: QueuedJob, { row: item, token }: Claim<KnowledgeBaseEntity>) {
    if (!item.url) {
      return;
    }
    const outcome =
      item.fetchAttempts > MAX_ATTEMPTS
        ? { error: `fetching the page was interrupted ${MAX_ATTEMPTS} times` }
        : await this.pages.textOf(item.url);
    const settled = await this.fetches.settleFetch(item, token, outcome);
    if (settled) {
      this.logger.log(
        { knowledge_base_id: item.id, status: settled.status, error: settled.error },
        'Knowledge page fetched',
      );
    }
  }
}
