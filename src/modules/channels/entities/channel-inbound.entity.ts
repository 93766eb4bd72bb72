import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

/**
 * A provider's webhook notification, signed and acknowledged: kept until it is processed, so a
 * crash after the 200 loses nothing (docs/api.md §4d). One row, one job.
 */
@Entity('channel_inbound')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_channel_inbound_due', ['nextAttemptAt'])
export class ChannelInboundEntity extends TeamRecordEntity {
  @IdColumn('channel_id')
  @ForeignKey('agent_channels', { onDelete: 'CASCADE' })
  channelId: string;

  /** The notification as it came (JSON text). */
  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @TimeColumn('next_attempt_at')
  nextAttemptAt: Date;

  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;
}

/** A provider's message id a channel has taken in: a redelivered notification is answered once. */
@Entity('channel_inbound_seen')
@Index('ix_channel_inbound_seen_created', ['createdAt'])
@ForeignKey('agent_channels', ['channelId'], ['id'], { onDelete: 'CASCADE' })
export class ChannelInboundSeenEntity {
  @PrimaryColumn({ name: 'channel_id', type: 'varchar', length: 36 })
  channelId: string;

  @PrimaryColumn({ name: 'provider_message_id', type: 'varchar', length: 255 })
  providerMessageId: string;

  @TimeColumn('created_at')
  createdAt: Date;
}
