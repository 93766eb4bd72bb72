import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';
import type { ChannelType } from '@/modules/agents/entities/agent-channel.entity';
import { ConversationEntity } from './conversation.entity';
import { MessageEntity } from './message.entity';

/** A send is a job until it is `sent` or has `failed` for good. */
export const CHANNEL_SEND_STATUSES = ['pending', 'sent', 'failed'] as const;
export type ChannelSendStatus = (typeof CHANNEL_SEND_STATUSES)[number];

/**
 * A customer-visible message to send through a channel's provider (docs/api.md §4d), queued in
 * the transaction that wrote the message and sent by a leased worker: one row, one job.
 */
@Entity('channel_sends')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_channel_sends_due', ['status', 'nextAttemptAt'])
@Index('ix_channel_sends_message', ['messageId'], { unique: true })
@Index('ix_channel_sends_provider_message', ['channelId', 'providerMessageId'])
export class ChannelSendEntity extends TeamRecordEntity {
  @IdColumn('agent_id')
  agentId: string;

  @IdColumn('conversation_id')
  @ForeignKey(() => ConversationEntity, { onDelete: 'CASCADE' })
  conversationId: string;

  @IdColumn('message_id')
  @ForeignKey(() => MessageEntity, { onDelete: 'CASCADE' })
  messageId: string;

  @IdColumn('channel_id')
  channelId: string;

  @Column({ name: 'channel_type', type: 'varchar', length: 32 })
  channelType: ChannelType;

  /** The provider's id of the customer (a WhatsApp number, a page-scoped user id). */
  @Column({ type: 'varchar', length: 255 })
  recipient: string;

  @Column({ type: 'varchar', length: 16 })
  status: ChannelSendStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @TimeColumn('next_attempt_at')
  nextAttemptAt: Date;

  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;

  /** The provider's id of the sent message: status callbacks name it. */
  @Column({ name: 'provider_message_id', type: 'varchar', length: 255, nullable: true })
  providerMessageId: string | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @TimeColumn('updated_at')
  updatedAt: Date;
}
