import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { Claim, JobTable } from '@/database/jobs/job-table';
import { KnowledgeBaseEntity, KnowledgeBaseStatus } from '../entities/knowledge-base.entity';

const HOUR_MS = 3_600_000;

/** What a fetch leaves on its item: its status, the error if it failed, the new text if any. */
export interface FetchOutcome {
  status: KnowledgeBaseStatus;
  error: string | null;
  content?: string;
}

/**
 * The fetch queue of URL items, kept in their own rows: an item is due when it waits for a fetch
 * (`pending`) or when its last fetch is older than the refresh period; a worker takes it with a
 * lease and a token, and its result is stored only if the token still holds (a newer request
 * to fetch, or a changed URL, replaces the token).
 */
@Injectable()
export class KnowledgeFetchRepository {
  private readonly jobs: JobTable<KnowledgeBaseEntity>;

  constructor(
    private readonly db: Database,
    config: AppConfig,
  ) {
    const refreshMs = config.knowledge.refreshHours * HOUR_MS;
    this.jobs = new JobTable(db, KnowledgeBaseEntity, {
      table: 'knowledge_bases',
      due: (params, now) =>
        `type = 'url' AND (status = 'pending'${
          refreshMs > 0 ? ` OR fetched_at < ${params.add(new Date(now.getTime() - refreshMs))}` : ''
        })`,
      dueOrder: 'updated_at',
      attempts: 'fetch_attempts',
      tokenColumn: 'fetch_token',
    });
  }

  /** Items due for a fetch and free, teams in turn (each carries its team onwards). */
  due(limit: number, perTeam: number, now: Date): Promise<KnowledgeBaseEntity[]> {
    return this.jobs.due(limit, perTeam, now);
  }

  /** Takes the item for `leaseMs` if it is still due and free; the token proves the claim. */
  claim(id: string, leaseMs: number): Promise<Claim<KnowledgeBaseEntity> | null> {
    return this.jobs.claim(id, leaseMs);
  }

  renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    return this.jobs.renew(id, token, leaseMs);
  }

  find(teamId: string, id: string): Promise<KnowledgeBaseEntity | null> {
    return this.db.findOne(KnowledgeBaseEntity, { teamId, id });
  }

  /**
   * Writes the fetch's outcome on the item and frees it, only while `token` still holds it;
   * whether it did. Joins the caller's transaction.
   */
  settle(id: string, token: string, outcome: FetchOutcome, now: Date): Promise<boolean> {
    return this.jobs.settle(id, token, {
      status: outcome.status,
      error: outcome.error,
      fetched_at: now,
      fetch_attempts: 0,
      updated_at: now,
      ...(outcome.content !== undefined ? { content: outcome.content } : {}),
    });
  }

  /** URL items of every team waiting for their first fetch, or for one asked again. */
  waiting(): Promise<number> {
    return this.db.count(KnowledgeBaseEntity, { type: 'url', status: 'pending' });
  }

  /** Frees every lease: at start in embedded mode, where no other process can hold one. */
  releaseAllLeases(): Promise<void> {
    return this.jobs.releaseAll();
  }
}
