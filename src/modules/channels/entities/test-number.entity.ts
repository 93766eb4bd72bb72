import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimeColumn } from '@/database/columns';

/**
 * A notification of the shared test number (docs/api.md §4d, the test code), signed and
 * acknowledged: kept until processed, like a channel's (channel_inbound). It belongs to no team
 * until its messages are read: each sender's binding says which agent they reach.
 */
@Entity('test_number_inbound')
@Index('ix_test_number_inbound_due', ['nextAttemptAt'])
export class TestNumberInboundEntity {
  @PrimaryIdColumn()
  id: string;

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

  @TimeColumn('created_at')
  createdAt: Date;
}

/** A provider message id the test number has taken in: a redelivered notification counts once. */
@Entity('test_number_inbound_seen')
@Index('ix_test_number_inbound_seen_created', ['createdAt'])
export class TestNumberSeenEntity {
  @PrimaryColumn({ name: 'provider_message_id', type: 'varchar', length: 255 })
  providerMessageId: string;

  @TimeColumn('created_at')
  createdAt: Date;
}

/**
 * Which agent a sender on the shared test number talks to: set by the last test code they sent,
 * gone with the agent (or its team).
 */
@Entity('test_channel_bindings')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_test_channel_bindings_agent', ['agentId'])
export class TestChannelBindingEntity {
  /** The sender's WhatsApp id (wa_id). */
  @PrimaryColumn({ name: 'channel_user_id', type: 'varchar', length: 255 })
  channelUserId: string;

  @IdColumn('team_id')
  teamId: string;

  @IdColumn('agent_id')
  @ForeignKey('agents', { onDelete: 'CASCADE' })
  agentId: string;

  @TimeColumn('created_at')
  createdAt: Date;

  @TimeColumn('updated_at')
  updatedAt: Date;
}
