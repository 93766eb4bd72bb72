import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { IdColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';
import { ConversationEntity } from './conversation.entity';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
export const MESSAGE_TYPES = ['text', 'action'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** The action run an `action` message reports, as it stood when the message was written. */
export interface MessageAction {
  run_id: string;
  action_name: string;
  status: string;
}

/**
 * What a conversation's records have besides a team's: their agent and conversation, with which
 * they go.
 */
abstract class ConversationRecordEntity extends TeamRecordEntity {
  @IdColumn('agent_id')
  agentId: string;

  @IdColumn('conversation_id')
  @ForeignKey(() => ConversationEntity, { onDelete: 'CASCADE' })
  conversationId: string;
}

@Entity('messages')
@Unique('uq_messages_conversation_seq', ['conversationId', 'seq'])
@Index('ix_messages_conversation_created', ['conversationId', 'createdAt'])
export class MessageEntity extends ConversationRecordEntity {
  /** Position in the conversation, in commit order: the stream's replay point. */
  @Column({ type: 'integer' })
  seq: number;

  @Column({ type: 'varchar', length: 16 })
  role: MessageRole;

  @Column({ type: 'text' })
  message: string;

  @Column({ name: 'message_type', type: 'varchar', length: 16 })
  messageType: MessageType;

  @Column({ type: 'simple-json' })
  attachments: unknown[];

  @Column({ type: 'simple-json', nullable: true })
  action: MessageAction | null;
}
