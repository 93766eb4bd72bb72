import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { DeliveryWorker } from './delivery/delivery-worker.service';
import { FanoutWorker } from './delivery/fanout-worker.service';
import { HandoffMail } from './mail/handoff-mail';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { PING_EVENT, WebhookEventType } from './event-types';
import { newDelivery, newEvent, webhookPayload } from './outbox/outbox-rows';
import { WebhookEventsRepository } from './outbox/webhook-events.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

const MAIL_EVENT = 'handoff.email';
const HOUR_MS = 3_600_000;

/**
 * The outbox. Other modules call `emit` inside the transaction of the change an event reports:
 * the event commits or rolls back with that change, so a rolled-back change tells nobody and a
 * committed one is never lost. The transaction writes one row, the event; its deliveries (one
 * per endpoint subscribed when it happened) are written afterwards by the fan-out worker, so a
 * team's many endpoints never lengthen the transactions of changes, its own or anyone's.
 */
@Injectable()
export class WebhookEvents {
  private readonly logger = new Logger(WebhookEvents.name);
  private readonly retryMaxAgeMs: number;
  private readonly mailCooldownMs: number;
  private readonly mailsPerHour: number;

  constructor(
    private readonly db: Database,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: WebhookEventsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly fanout: FanoutWorker,
    private readonly worker: DeliveryWorker,
    private readonly mail: HandoffMail,
    config: AppConfig,
  ) {
    this.retryMaxAgeMs = config.webhooks.retryMaxAgeS * 1000;
    this.mailCooldownMs = config.mail.escalationCooldownS * 1000;
    this.mailsPerHour = config.mail.maxPerHour;
  }

  /**
   * Records `type` with `data` (the record in its API shape) for the enabled endpoints of the team
   * that subscribe to it. Must run inside the transaction of the change (`db.transaction`).
   */
  async emit(teamId: string, type: WebhookEventType, data: object): Promise<void> {
    this.assertInTransaction(type);
    if (!(await this.endpoints.anySubscribedTo(teamId, type))) {
      return;
    }
    const event = newEvent(teamId, type, webhookPayload(type, data), false);
    await this.events.insert(event);
    this.db.afterCommit(() => this.fanout.schedule({ id: event.id, teamId }));
  }

  /** Whether hand-off notices are sent at all (SMTP_URL is set). */
  get handoffMailEnabled(): boolean {
    return this.mail.configured;
  }

  /** The `ping` event of POST /webhooks/{id}/test, to that endpoint only. */
  async ping(endpoint: WebhookEndpointEntity): Promise<WebhookDeliveryEntity> {
    const event = newEvent(
      endpoint.teamId,
      PING_EVENT,
      webhookPayload(PING_EVENT, { webhook_id: endpoint.id }),
      true,
    );
    const delivery = newDelivery(event, this.retryMaxAgeMs, {
      kind: 'webhook',
      endpointId: endpoint.id,
    });
    await this.db.transaction(async () => {
      await this.events.insert(event);
      await this.deliveries.insert([delivery]);
      this.db.afterCommit(() => this.worker.schedule(delivery));
    });
    return delivery;
  }

  /**
   * Queues a hand-off notice to `to` about the conversation, unless mail is not configured, one
   * was queued for it within the cooldown, or the team or the recipient had their hour's share of
   * mails (HANDOFF_MAIL_MAX_PER_HOUR). Must run inside the transaction that set `needs_attention`:
   * that row's lock keeps two hand-offs of one conversation from both passing the cooldown check.
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
    // Hand-offs of one team take turns from here to the insert, so the hourly cap counts them all.
    await this.db.lockRow('teams', teamId, 'no key update');
    const last = await this.deliveries.lastMailAt(teamId, conversationId);
    if (last && Date.now() - last.getTime() < this.mailCooldownMs) {
      return;
    }
    const recipient = message.to.toLowerCase();
    const sent = await this.deliveries.mailsSince(
      teamId,
      recipient,
      new Date(Date.now() - HOUR_MS),
    );
    if (sent.byTeam >= this.mailsPerHour || sent.toRecipient >= this.mailsPerHour) {
      this.logger.warn(
        { team_id: teamId, conversation_id: conversationId },
        `Hand-off mail not sent: HANDOFF_MAIL_MAX_PER_HOUR (${this.mailsPerHour}) reached for the ${
          sent.byTeam >= this.mailsPerHour ? 'team' : 'recipient'
        }`,
      );
      return;
    }
    const event = newEvent(teamId, MAIL_EVENT, () => JSON.stringify(message), true);
    const delivery = newDelivery(event, this.retryMaxAgeMs, {
      kind: 'email',
      conversationId,
      recipient,
    });
    await this.events.insert(event);
    await this.deliveries.insert([delivery]);
    this.db.afterCommit(() => this.worker.schedule(delivery));
  }

  private assertInTransaction(type: string): void {
    if (!this.db.inTransaction) {
      throw new Error(
        `Event ${type} emitted outside a transaction: emit it in the transaction of its change`,
      );
    }
  }
}
