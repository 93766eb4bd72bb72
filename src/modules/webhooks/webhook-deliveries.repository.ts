import { Injectable } from '@nestjs/common';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { DeliveryListQueryDto } from './dto/delivery-list-query.dto';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

export type DeliveryOutcome = Pick<
  WebhookDeliveryEntity,
  'status' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt'
>;

export const WEBHOOK_DELIVERY_LIST: ListTable = {
  from: 'webhook_deliveries delivery',
  columns: 'delivery.*',
  searchColumns: ['delivery.event_type'],
  sortColumns: { created_at: 'delivery.created_at', updated_at: 'delivery.updated_at' },
  defaultSort: '-created_at',
  tieBreaker: 'delivery.id',
};

const BACKLOG =
  'SELECT count(*) AS pending, ' +
  'COALESCE(SUM(CASE WHEN next_attempt_at <= $1 THEN 1 ELSE 0 END), 0) AS due ' +
  "FROM webhook_deliveries WHERE status = 'pending'";

/** The outbox: events, and their deliveries that the worker leases. */
@Injectable()
export class WebhookDeliveriesRepository {
  /** A delivery is a job: due while pending and its next attempt has come. */
  readonly jobs: JobTable<WebhookDeliveryEntity>;
  private readonly lists: ListPages<WebhookDeliveryEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, WebhookDeliveryEntity, WEBHOOK_DELIVERY_LIST);
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
    return this.db.findOne(WebhookDeliveryEntity, { teamId, endpointId, id });
  }

  async list(
    teamId: string,
    endpointId: string,
    query: DeliveryListQueryDto,
  ): Promise<Page<WebhookDeliveryEntity>> {
    const owned = 'delivery.team_id = $1 AND delivery.endpoint_id = $2';
    const page = await this.lists.page(
      query.status
        ? { where: `${owned} AND delivery.status = $3`, params: [teamId, endpointId, query.status] }
        : { where: owned, params: [teamId, endpointId] },
      query,
    );
    return Page.from(page, query);
  }

  /**
   * Puts a finished (or pending) delivery back in the queue, due now. Its claim, if a worker held
   * one, is void: that worker's outcome is no longer recorded.
   */
  async requeue(teamId: string, id: string, retryUntil: Date): Promise<void> {
    const now = new Date();
    await this.db.update(
      WebhookDeliveryEntity,
      { teamId, id },
      {
        status: 'pending',
        nextAttemptAt: now,
        retryUntil,
        leaseUntil: null,
        leaseToken: null,
        updatedAt: now,
      },
    );
  }

  /** Pending deliveries of every team (webhooks and mails), and how many of them are due now. */
  async backlog(): Promise<{ pending: number; due: number }> {
    const { rows } = await this.db.execute<{ pending: number | string; due: number | string }>(
      BACKLOG,
      [new Date()],
    );
    // PostgreSQL's count and sum are bigints, which its driver hands over as strings.
    return { pending: Number(rows[0].pending), due: Number(rows[0].due) };
  }

  /** When the last hand-off mail about the conversation was queued. */
  async lastMailAt(teamId: string, conversationId: string): Promise<Date | null> {
    const last = await this.db.findOne(
      WebhookDeliveryEntity,
      { teamId, conversationId, kind: 'email' },
      { orderBy: { createdAt: 'DESC' } },
    );
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
