import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { DeliveryListQueryDto } from './dto/delivery-list-query.dto';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEventEntity } from './entities/webhook-event.entity';

export type DeliveryOutcome = Pick<
  WebhookDeliveryEntity,
  'status' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt'
>;

/** The outbox: events, and their deliveries that the worker leases. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Database) {}

  /** Joins the caller's transaction: the event commits or rolls back with the change it reports. */
  async insert(event: WebhookEventEntity, deliveries: WebhookDeliveryEntity[]): Promise<void> {
    await this.db.insert(WebhookEventEntity, [event]);
    await this.db.insert(WebhookDeliveryEntity, deliveries);
  }

  findOwned(teamId: string, endpointId: string, id: string): Promise<WebhookDeliveryEntity | null> {
    return this.db.manager.findOneBy(WebhookDeliveryEntity, { teamId, endpointId, id });
  }

  find(id: string): Promise<WebhookDeliveryEntity | null> {
    return this.db.manager.findOneBy(WebhookDeliveryEntity, { id });
  }

  findEvent(teamId: string, id: string): Promise<WebhookEventEntity | null> {
    return this.db.manager.findOneBy(WebhookEventEntity, { teamId, id });
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

  /** Takes the delivery for `leaseMs` and counts the attempt; false when it is not due or taken. */
  async claim(id: string, leaseMs: number): Promise<boolean> {
    const now = new Date();
    const result = await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set({ leaseUntil: new Date(now.getTime() + leaseMs), attempts: () => 'attempts + 1' })
        .where("id = :id AND status = 'pending' AND next_attempt_at <= :now", { id, now })
        .andWhere(
          new Brackets((open) =>
            open.where('lease_until IS NULL').orWhere('lease_until < :now', { now }),
          ),
        )
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  async record(teamId: string, id: string, outcome: DeliveryOutcome): Promise<void> {
    await this.db.write(() =>
      this.db.manager.update(
        WebhookDeliveryEntity,
        { teamId, id },
        { ...outcome, leaseUntil: null, updatedAt: new Date() },
      ),
    );
  }

  /** Puts a finished (or pending) delivery back in the queue, due now. */
  async requeue(teamId: string, id: string, retryUntil: Date): Promise<void> {
    const now = new Date();
    const changes: QueryDeepPartialEntity<WebhookDeliveryEntity> = {
      status: 'pending',
      nextAttemptAt: now,
      retryUntil,
      leaseUntil: null,
      updatedAt: now,
    };
    await this.db.write(() =>
      this.db.manager.update(WebhookDeliveryEntity, { teamId, id }, changes),
    );
  }

  /**
   * Deliveries due and nobody's: never claimed, waiting for a retry, or claimed by a worker whose
   * lease ran out. Across every team, as the sweep serves them all; each carries its team onwards.
   */
  due(limit: number, dueBy: Date): Promise<WebhookDeliveryEntity[]> {
    return this.db.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'delivery')
      .where("delivery.status = 'pending' AND delivery.next_attempt_at <= :dueBy", { dueBy })
      .andWhere(
        new Brackets((open) =>
          open
            .where('delivery.lease_until IS NULL')
            .orWhere('delivery.lease_until < :now', { now: new Date() }),
        ),
      )
      .orderBy('delivery.next_attempt_at', 'ASC')
      .limit(limit)
      .getMany();
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

  /** Frees every lease: used at start in embedded mode, where no other process can hold one. */
  async releaseAllLeases(): Promise<void> {
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set({ leaseUntil: null })
        .where('lease_until IS NOT NULL')
        .execute(),
    );
  }
}
