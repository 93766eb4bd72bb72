import { Column, Entity, Index } from 'typeorm';
import { TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

/** One event of the outbox, written in the transaction of the change it reports. */
@Entity('webhook_events')
// The fan-out's sweep (events not yet fanned out) and retention (fanned out long ago).
@Index('ix_webhook_events_fanout', ['fannedOutAt', 'createdAt'])
export class WebhookEventEntity extends TeamRecordEntity {
  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The exact JSON body every delivery of the event sends (and signs). */
  @Column({ type: 'text' })
  payload: string;

  /** When its deliveries were written, one per subscribed endpoint; null until then. */
  @TimeColumn('fanned_out_at', { nullable: true })
  fannedOutAt: Date | null;

  /** The fan-out's claim, as for any job. */
  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;
}
