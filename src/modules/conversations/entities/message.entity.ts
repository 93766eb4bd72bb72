import { Column, Entity, PrimaryColumn } from 'typeorm';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

@Entity('messages')
export class MessageEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ name: 'agent_id', type: 'varchar', length: 36 })
  agentId: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  /** Position in the conversation, in commit order: the stream's replay point. */
  @Column({ type: 'integer' })
  seq: number;

  @Column({ type: 'varchar', length: 16 })
  role: MessageRole;

  @Column({ type: 'text' })
  message: string;

  @Column({ name: 'message_type', type: 'varchar', length: 16 })
  messageType: 'text';

  @Column({ type: 'simple-json' })
  attachments: unknown[];

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

/** A user message still waiting for its reply; removed in the transaction that stores the reply. */
@Entity('pending_replies')
export class PendingReplyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ name: 'agent_id', type: 'varchar', length: 36 })
  agentId: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @Column({ name: 'message_id', type: 'varchar', length: 36 })
  messageId: string;

  @Column({ type: 'integer' })
  attempts: number;

  /** While set and in the future, a worker is producing this reply. */
  @Column({ name: 'lease_until', type: Date, nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
