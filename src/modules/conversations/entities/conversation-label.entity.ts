import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { ConversationEntity, ConversationStatus } from './conversation.entity';

/**
 * One label of a conversation, a row per label, so that an index serves the team queue's label
 * filter (`conversations.labels`, a JSON array, stays what the API returns). The conversation's
 * status, assignee and last message time are copied beside the label, so that the queue's usual
 * filters, the page's total and the page in its default order are read from the index: every
 * write of a conversation's labels, status or assignee rewrites its rows in the same transaction
 * (ConversationLabels), and so does each message (ConversationsRepository.bump).
 */
@Entity('conversation_labels')
@Index('ix_conversation_labels_queue', [
  'teamId',
  'label',
  'status',
  'assigneeId',
  'lastMessageAt',
  'conversationId',
])
export class ConversationLabelEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  @ForeignKey(() => ConversationEntity, { onDelete: 'CASCADE' })
  conversationId: string;

  @PrimaryColumn({ type: 'varchar', length: 50 })
  label: string;

  @IdColumn('team_id')
  teamId: string;

  @Column({ type: 'varchar', length: 16 })
  status: ConversationStatus;

  @Column({ name: 'assignee_id', type: 'varchar', length: 255, nullable: true })
  assigneeId: string | null;

  @TimeColumn('last_message_at', { nullable: true })
  lastMessageAt: Date | null;
}
