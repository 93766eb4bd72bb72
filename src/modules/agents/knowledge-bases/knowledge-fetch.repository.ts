import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { toKnowledgeBaseResponse } from './dto/knowledge-base-response.dto';
import { KnowledgeBaseEntity } from './entities/knowledge-base.entity';
import { KnowledgeQuota } from './knowledge-quota';
import { PageText } from './page-fetcher';
import { PassagesRepository } from './passages.repository';

/**
 * The fetch queue of URL items, kept in their own rows: an item is due when it waits for a fetch
 * (`pending`) or when its last fetch is older than the refresh period; a worker takes it with a
 * lease and a token, and its result is stored only if the token still holds (a newer request
 * to fetch, or a changed URL, replaces the token).
 */
@Injectable()
export class KnowledgeFetchRepository {
  constructor(
    private readonly db: Database,
    private readonly passages: PassagesRepository,
    private readonly webhooks: WebhookEvents,
    private readonly quota: KnowledgeQuota,
  ) {}

  /** The condition "due and free" on columns prefixed by `alias` (an UPDATE has none). */
  private due(alias: string, now: Date, refreshBefore: Date | null): [string, object] {
    const refresh = refreshBefore ? ` OR ${alias}fetched_at < :refreshBefore` : '';
    return [
      `${alias}type = 'url' AND (${alias}lease_until IS NULL OR ${alias}lease_until < :now) ` +
        `AND (${alias}status = 'pending'${refresh})`,
      { now, refreshBefore },
    ];
  }

  /** Items due for a fetch and free, across every team (each carries its team onwards). */
  dueItems(limit: number, refreshBefore: Date | null): Promise<KnowledgeBaseEntity[]> {
    const [condition, parameters] = this.due('kb.', new Date(), refreshBefore);
    return this.db.manager
      .createQueryBuilder(KnowledgeBaseEntity, 'kb')
      .where(condition, parameters)
      .orderBy('kb.updated_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Takes the item for `leaseMs` if it is still due and free; the token proves the claim. */
  async claim(
    teamId: string,
    id: string,
    leaseMs: number,
    refreshBefore: Date | null,
  ): Promise<string | null> {
    const now = new Date();
    const token = newId();
    const [condition, parameters] = this.due('', now, refreshBefore);
    const result = await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(KnowledgeBaseEntity)
        .set({
          leaseUntil: new Date(now.getTime() + leaseMs),
          fetchToken: token,
          fetchAttempts: () => 'fetch_attempts + 1',
        })
        .where('team_id = :teamId AND id = :id', { teamId, id })
        .andWhere(condition, parameters)
        .execute(),
    );
    return (result.affected ?? 0) > 0 ? token : null;
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
      const changes: Partial<KnowledgeBaseEntity> = {
        status: outcome.error === undefined ? 'ready' : 'failed',
        error: outcome.error ?? null,
        fetchedAt: now,
        leaseUntil: null,
        fetchToken: null,
        fetchAttempts: 0,
        updatedAt: now,
        ...(outcome.text !== undefined ? { content: outcome.text } : {}),
      };
      const result = await this.db.manager.update(
        KnowledgeBaseEntity,
        { teamId: item.teamId, id: item.id, fetchToken: token },
        changes,
      );
      if ((result.affected ?? 0) === 0) {
        return null;
      }
      if (outcome.text !== undefined) {
        await this.passages.replaceForItem(item, outcome.text);
      }
      // Read back: a rename or description change made during the fetch is part of the record.
      const settled = (await this.db.manager.findOneBy(KnowledgeBaseEntity, {
        teamId: item.teamId,
        id: item.id,
      }))!;
      await this.webhooks.emit(
        item.teamId,
        settled.status === 'ready' ? 'knowledge_base.ready' : 'knowledge_base.failed',
        toKnowledgeBaseResponse(settled),
      );
      return settled;
    });
  }

  /** URL items of every team waiting for their first fetch, or for one asked again. */
  waiting(): Promise<number> {
    return this.db.manager.count(KnowledgeBaseEntity, {
      where: { type: 'url', status: 'pending' },
    });
  }

  /** Frees every lease: at start in embedded mode, where no other process can hold one. */
  async releaseAllLeases(): Promise<void> {
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(KnowledgeBaseEntity)
        .set({ leaseUntil: null })
        .where('lease_until IS NOT NULL')
        .execute(),
    );
  }
}
