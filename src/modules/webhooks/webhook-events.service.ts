import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { DeliveryWorker } from './delivery/delivery-worker.service';
import { HandoffMail } from './mail/handoff-mail';
import { DeliveryKind, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { WebhookEventEntity } from './entities/webhook-event.entity';
import { EVENT_ID_PREFIX, PING_EVENT, WebhookEventType } from './event-types';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

const MAIL_EVENT = 'handoff.email';

/**
 * The outbox. Other modules call `emit` inside the transaction of the change an event reports:
 * the event and one delivery per subscribed endpoint commit or roll back with that change, so a
 * rolled-back change tells nobody and a committed one is never lost. The deliveries are fanned
 * out here rather than by the worker, so that an endpoint created later does not receive older
 * events, and so the worker only ever leases one kind of row. Once the transaction commits, the
 * worker of this process is handed the new deliveries; the sweep of any instance takes them
 * otherwise.
 */
@Injectable()
export class WebhookEvents {
  private readonly retryMaxAgeMs: number;
  private readonly mailCooldownMs: number;

  constructor(
    private readonly db: Database,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly worker: DeliveryWorker,
    private readonly mail: HandoffMail,
    config: AppConfig,
  ) {
    this.retryMaxAgeMs = config.webhooks.retryMaxAgeS * 1000;
    this.mailCooldownMs = config.mail.escalationCooldownS * 1000;
  }

  /**
   * Records `type` with `data` (the record in its API shape) for every enabled endpoint of the
   * team that subscribes to it. Must run inside the transaction of the change (`db.transaction`).
   */
  async emit(teamId: string, type: WebhookEventType, data: object): Promise<void> {
    this.assertInTransaction(type);
    const subscribed = await this.endpoints.subscribedTo(teamId, type);
    if (subscribed.length > 0) {
      await this.record(teamId, type, data, subscribed);
    }
  }

  /** Whether hand-off notices are sent at all (SMTP_URL is set). */
  get handoffMailEnabled(): boolean {
    return this.mail.configured;
  }

  /** The `ping` event of POST /webhooks/{id}/test, to that endpoint only. */
  async ping(endpoint: WebhookEndpointEntity): Promise<WebhookDeliveryEntity> {
    const [delivery] = await this.db.transaction(() =>
      this.record(endpoint.teamId, PING_EVENT, { webhook_id: endpoint.id }, [endpoint.id]),
    );
    return delivery;
  }

  /**
   * Queues a hand-off notice to `to` about the conversation, unless mail is not configured or one
   * was queued for it within the cooldown. Must run inside the transaction that set
   * `needs_attention`: that row's lock keeps two hand-offs of one conversation from both passing
   * the cooldown check.
   */
  async queueHandoffMail(
    teamId: string,
    conversationId: string,
    message: { to: string; subject: string; text: string },
  ): Promise<void> {
    this.assertInTransaction(MAIL_EVENT);
    if (!this.mail.configured) {
      return;
    }
    const last = await this.deliveries.lastMailAt(teamId, conversationId);
    if (last && Date.now() - last.getTime() < this.mailCooldownMs) {
      return;
    }
    const event = this.newEvent(teamId, MAIL_EVENT, JSON.stringify(message));
    const delivery = this.newDelivery(event, 'email', null, conversationId);
    await this.deliveries.insert(event, [delivery]);
    this.db.afterCommit(() => this.worker.schedule([delivery.id]));
  }

  private async record(
    teamId: string,
    type: string,
    data: object,
    endpointIds: string[],
  ): Promise<WebhookDeliveryEntity[]> {
    const id = newId();
    const createdAt = new Date();
    const payload = JSON.stringify({
      id: `${EVENT_ID_PREFIX}${id}`,
      type,
      created_at: createdAt.toISOString(),
      data,
    });
    const event: WebhookEventEntity = { id, teamId, type, payload, createdAt };
    const deliveries = endpointIds.map((endpointId) =>
      this.newDelivery(event, 'webhook', endpointId, null),
    );
    await this.deliveries.insert(event, deliveries);
    this.db.afterCommit(() => this.worker.schedule(deliveries.map((delivery) => delivery.id)));
    return deliveries;
  }

  private newEvent(teamId: string, type: string, payload: string): WebhookEventEntity {
    return { id: newId(), teamId, type, payload, createdAt: new Date() };
  }

  private newDelivery(
    event: WebhookEventEntity,
    kind: DeliveryKind,
    endpointId: string | null,
    conversationId: string | null,
  ): WebhookDeliveryEntity {
    return {
      id: newId(),
      teamId: event.teamId,
      kind,
      eventId: event.id,
      eventType: event.type,
      endpointId,
      conversationId,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: event.createdAt,
      retryUntil: new Date(event.createdAt.getTime() + this.retryMaxAgeMs),
      leaseUntil: null,
      createdAt: event.createdAt,
      updatedAt: event.createdAt,
    };
  }

  private assertInTransaction(type: string): void {
    if (!this.db.inTransaction) {
      throw new Error(
        `Event ${type} emitted outside a transaction: emit it in the transaction of its change`,
      );
    }
  }
}
