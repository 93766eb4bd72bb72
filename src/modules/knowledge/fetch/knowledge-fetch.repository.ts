import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { Claim, JobTable } from '@/database/jobs/job-table';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { toKnowledgeBaseResponse } from '../dto/knowledge-base-response.dto';
import { KnowledgeBaseEntity } from '../entities/knowledge-base.entity';
import { KnowledgeQuota } from '../knowledge-quota';
import { PageText } from './page-fetcher';
import { PassagesRepository } from '../index/passages.repository';

const HOUR_MS = 3_600_000;

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
    private readonly passages: PassagesRepository,
    private readonly webhooks: WebhookEvents,
    private readonly quota: KnowledgeQuota,
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
    return this.db.manager.findOneBy(KnowledgeBaseEntity, { teamId, id });
  }

  /**
   * The one place a URL item turns `ready` (its text and passages replaced) or `failed` (its
   * error set; the last good text keeps answering), in one transaction, and only while
   * `token` still holds the item. Returns the item as stored, or null when the result was stale.
   * A text that would pass the team's knowledge cap fails the item instead.
   */
  async settleFetch(
    item: KnowledgeBaseEntity,
    token: string,
    fetched: PageText,
  ): Promise<KnowledgeBaseEntity | null> {
    return this.db.transaction(async () => {
      const refusal = await this.quota.refusal(item.teamId, item.id, fetched.text ?? null);
      const outcome: PageText = refusal ? { error: refusal } : fetched;
      const now = new Date();
      const settled = await this.jobs.settle(item.id, token, {
        status: outcome.error === undefined ? 'ready' : 'failed',
        error: outcome.error ?? null,
        fetched_at: now,
        fetch_attempts: 0,
        updated_at: now,
        ...(outcome.text !== undefined ? { content: outcome.text } : {}),
      });
      if (!settled) {
        return null;
      }
      if (outcome.text !== undefined) {
        await this.passages.replaceForItem(item, outcome.text);
      }
      // Read back: a rename or description change made during the fetch is part of the record.
      const stored = (await this.find(item.teamId, item.id))!;
      await this.webhooks.emit(
        item.teamId,
        stored.status === 'ready' ? 'knowledge_base.ready' : 'knowledge_base.failed',
        toKnowledgeBaseResponse(stored),
      );
      return stored;
    });
  }

  /** URL items of every team waiting for their first fetch, or for one asked again. */
  waiting(): Promise<number> {
    return this.db.manager.count(KnowledgeBaseEntity, {
      where: { type: 'url', status: 'pending' },
    });
  }

  /** Frees every lease: at start in embedded mode, where no other process can hold one. */
  releaseAllLeases(): Promise<void> {
    return this.jobs.releaseAll();
  }
}
