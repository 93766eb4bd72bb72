import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { IdColumn } from '@/database/columns';
import { ConversationEntity, ConversationStatus } from './conversation.entity';

/**
 * One label of a conversation, a row per label, so that an index serves the team queue's label
 * filter (`conversations.labels`, a JSON array, stays what the API returns). The conversation's
 * status and assignee are copied beside the label, so that the queue's usual filters and the
 * page's total are read from the index alone: every write of a conversation's labels, status or
 * assignee rewrites its rows in the same transaction (ConversationLabels).
 */
@Entity('conversation_labels')
@Index('ix_conversation_labels_queue', [
  'teamId',
  'label',
  'status',
  'assigneeId',
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
}
