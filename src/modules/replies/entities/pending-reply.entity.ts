import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

/** A user message still waiting for its reply; removed in the transaction that stores the reply. */
@Entity('pending_replies')
@Unique('uq_pending_replies_message', ['messageId'])
@Index('ix_pending_replies_created', ['createdAt'])
export class PendingReplyEntity extends TeamRecordEntity {
  @IdColumn('agent_id')
  agentId: string;

  @IdColumn('conversation_id')
  @ForeignKey('conversations', { onDelete: 'CASCADE' })
  conversationId: string;

  @IdColumn('message_id')
  @ForeignKey('messages', { onDelete: 'CASCADE' })
  messageId: string;

  @Column({ type: 'integer' })
  attempts: number;

  /** While set and in the future, a worker is producing this reply. */
  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  /** The claim of the worker producing it: only that worker may store the reply. */
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;
}
