import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `webhook`: a POST to an endpoint; `email`: a hand-off notice to an agent's escalation address. */
export type DeliveryKind = 'webhook' | 'email';

/** One event on its way to one endpoint (or one mail on its way): the unit the worker leases. */
@Entity('webhook_deliveries')
// The worker's sweep: pending deliveries by due time.
@Index('ix_webhook_deliveries_due', ['status', 'nextAttemptAt'])
@Index('ix_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt'])
@Index('ix_webhook_deliveries_conversation', ['conversationId', 'createdAt'])
@Index('ix_webhook_deliveries_event', ['eventId'])
// Hand-off mails counted per team and per recipient; retention's finished deliveries.
@Index('ix_webhook_deliveries_team_kind', ['teamId', 'kind', 'createdAt'])
@Index('ix_webhook_deliveries_recipient', ['recipient', 'createdAt'])
@Index('ix_webhook_deliveries_finished', ['status', 'updatedAt'])
export class WebhookDeliveryEntity extends TeamScopedEntity {
  @Column({ type: 'varchar', length: 16 })
  kind: DeliveryKind;

  @IdColumn('event_id')
  @ForeignKey(() => WebhookEventEntity, { onDelete: 'CASCADE' })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 36, nullable: true })
  @ForeignKey(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  endpointId: string | null;

  /** The conversation a hand-off mail is about: its cooldown is counted per conversation. */
  @Column({ name: 'conversation_id', type: 'varchar', length: 36, nullable: true })
  conversationId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  /** When the worker may next try; null once it succeeded or failed for good. */
  @TimeColumn('next_attempt_at', { nullable: true })
  nextAttemptAt: Date | null;

  /** Retries stop after this (the delivery then fails). */
  @TimeColumn('retry_until')
  retryUntil: Date;

  /** While set and in the future, a worker is sending this delivery. */
  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  /** The claim of the worker sending it: only that worker may record the outcome. */
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;

  /** The address a hand-off mail goes to: mails are counted per recipient. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  recipient: string | null;
}
