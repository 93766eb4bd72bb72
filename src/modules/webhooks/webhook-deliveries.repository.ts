import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import { DeliveryListQueryDto } from './dto/delivery-list-query.dto';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

export type DeliveryOutcome = Pick<
  WebhookDeliveryEntity,
  'status' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt'
>;

/** The outbox: events, and their deliveries that the worker leases. */
@Injectable()
export class WebhookDeliveriesRepository {
  /** A delivery is a job: due while pending and its next attempt has come. */
  readonly jobs: JobTable<WebhookDeliveryEntity>;

  constructor(private readonly db: Database) {
    this.jobs = new JobTable(db, WebhookDeliveryEntity, {
      table: 'webhook_deliveries',
      due: (params, now) => `status = 'pending' AND next_attempt_at <= ${params.add(now)}`,
      dueOrder: 'next_attempt_at',
      attempts: 'attempts',
    });
  }

  /** Joins the caller's transaction. */
  async insert(deliveries: WebhookDeliveryEntity[]): Promise<void> {
    await this.db.insert(WebhookDeliveryEntity, deliveries);
  }

  findOwned(teamId: string, endpointId: string, id: string): Promise<WebhookDeliveryEntity | null> {
    return this.db.manager.findOneBy(WebhookDeliveryEntity, { teamId, endpointId, id });
  }

  list(
    teamId: string,
    endpointId: string,
    query: DeliveryListQueryDto,
  ): Promise<Page<WebhookDeliveryEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'delivery')
      .where('delivery.team_id = :teamId AND delivery.endpoint_id = :endpointId', {
        teamId,
        endpointId,
      });
    if (query.status) {
      builder.andWhere('delivery.status = :status', { status: query.status });
    }
    return paginate(builder, query, {
      searchColumns: ['delivery.event_type'],
      sortColumns: { created_at: 'delivery.created_at', updated_at: 'delivery.updated_at' },
      defaultSort: '-created_at',
      tieBreaker: 'delivery.id',
    });
  }

  /**
   * Puts a finished (or pending) delivery back in the queue, due now. Its claim, if a worker held
   * one, is void: that worker's outcome is no longer recorded.
   */
  async requeue(teamId: string, id: string, retryUntil: Date): Promise<void> {
    const now = new Date();
    const changes: QueryDeepPartialEntity<WebhookDeliveryEntity> = {
      status: 'pending',
      nextAttemptAt: now,
      retryUntil,
      leaseUntil: null,
      leaseToken: null,
      updatedAt: now,
    };
    await this.db.write(() =>
      this.db.manager.update(WebhookDeliveryEntity, { teamId, id }, changes),
    );
  }

  /** Pending deliveries of every team (webhooks and mails), and how many of them are due now. */
  async backlog(): Promise<{ pending: number; due: number }> {
    const pending = () =>
      this.db.manager
        .createQueryBuilder(WebhookDeliveryEntity, 'delivery')
        .where("delivery.status = 'pending'");
    const [all, due] = await Promise.all([
      pending().getCount(),
      pending().andWhere('delivery.next_attempt_at <= :now', { now: new Date() }).getCount(),
    ]);
    return { pending: all, due };
  }

  /** When the last hand-off mail about the conversation was queued. */
  async lastMailAt(teamId: string, conversationId: string): Promise<Date | null> {
    const last = await this.db.manager.findOne(WebhookDeliveryEntity, {
      where: { teamId, conversationId, kind: 'email' },
      order: { createdAt: 'DESC' },
    });
    return last?.createdAt ?? null;
  }

  /** Hand-off mails queued since `since`: by the team, and to `recipient` by any team. */
  async mailsSince(
    teamId: string,
    recipient: string,
    since: Date,
  ): Promise<{ byTeam: number; toRecipient: number }> {
    const { rows } = await this.db.execute<{
      by_team: number | string;
      to_recipient: number | string;
    }>(
      `SELECT
         (SELECT COUNT(*) FROM webhook_deliveries
          WHERE team_id = $1 AND kind = 'email' AND created_at >= $3) AS by_team,
         (SELECT COUNT(*) FROM webhook_deliveries
          WHERE recipient = $2 AND created_at >= $3) AS to_recipient`,
      [teamId, recipient, since],
    );
    return { byTeam: Number(rows[0].by_team), toRecipient: Number(rows[0].to_recipient) };
  }

  /** Deletes up to `limit` deliveries that succeeded or failed for good before `cutoff`. */
  async purgeFinished(cutoff: Date, limit: number): Promise<number> {
    const { changes } = await this.db.write(() =>
      this.db.execute(
        `DELETE FROM webhook_deliveries WHERE id IN
           (SELECT id FROM webhook_deliveries
            WHERE status IN ('succeeded', 'failed') AND updated_at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
    return changes;
  }
}
