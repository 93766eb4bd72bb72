import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { toKnowledgeBaseResponse } from '../dto/knowledge-base-response.dto';
import { KnowledgeBaseEntity } from '../entities/knowledge-base.entity';
import { PassagesRepository } from '../index/passages.repository';
import { KnowledgeQuota } from '../knowledge-quota';
import { KnowledgeFetchRepository } from './knowledge-fetch.repository';
import { PageText } from './page-fetcher';

/** Stores what fetching a URL item's page came to, and tells the team's webhooks. */
@Injectable()
export class KnowledgeFetchService {
  constructor(
    private readonly db: Database,
    private readonly queue: KnowledgeFetchRepository,
    private readonly passages: PassagesRepository,
    private readonly webhooks: WebhookEvents,
    private readonly quota: KnowledgeQuota,
  ) {}

  /**
   * The one place a URL item turns `ready` (its text and passages replaced) or `failed` (its
   * error set; the last good text keeps answering), in one transaction, and only while
   * `token` still holds the item. Returns the item as stored, or null when the result was stale.
   * A text that would pass the team's knowledge cap fails the item instead.
   */
  settleFetch(
    item: KnowledgeBaseEntity,
    token: string,
    fetched: PageText,
  ): Promise<KnowledgeBaseEntity | null> {
    return this.db.transaction(async () => {
      const refusal = await this.quota.refusal(item.teamId, item.id, fetched.text ?? null);
      const outcome: PageText = refusal ? { error: refusal } : fetched;
      const settled = await this.queue.settle(
        item.id,
        token,
        {
          status: outcome.error === undefined ? 'ready' : 'failed',
          error: outcome.error ?? null,
          content: outcome.text,
        },
        new Date(),
      );
      if (!settled) {
        return null;
      }
      if (outcome.text !== undefined) {
        await this.passages.replaceForItem(item, outcome.text);
      }
      // Read back: a rename or description change made during the fetch is part of the record.
      const stored = (await this.queue.find(item.teamId, item.id))!;
      await this.webhooks.emit(
        item.teamId,
        stored.status === 'ready' ? 'knowledge_base.ready' : 'knowledge_base.failed',
        toKnowledgeBaseResponse(stored),
      );
      return stored;
    });
  }
}
