import { Column, Entity } from 'typeorm';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

/** One event of the outbox, written in the transaction of the change it reports. */
@Entity('webhook_events')
export class WebhookEventEntity extends TeamRecordEntity {
  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The exact JSON body every delivery of the event sends (and signs). */
  @Column({ type: 'text' })
  payload: string;
}
