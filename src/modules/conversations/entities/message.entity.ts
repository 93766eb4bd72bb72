import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';
import { ConversationEntity } from './conversation.entity';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
/** What a customer sends through a provider's channel besides text (docs/api.md §4d). */
export const MEDIA_MESSAGE_TYPES = [
  'image',
  'audio',
  'video',
  'document',
  'location',
  'sticker',
] as const;
export type MediaMessageType = (typeof MEDIA_MESSAGE_TYPES)[number];
/** `note`: a private note between staff, never shown to the customer nor to the model. */
export const MESSAGE_TYPES = ['text', 'action', 'note', ...MEDIA_MESSAGE_TYPES] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** The types the customer sees: everything but notes. */
export const CUSTOMER_MESSAGE_TYPES: MessageType[] = ['text', 'action', ...MEDIA_MESSAGE_TYPES];

/**
 * A customer's media: `url` is the console's own attachment route, which streams it from the
 * provider; `provider_id` is the provider's handle (WhatsApp's media id, Messenger's and
 * Instagram's attachment URL).
 */
export interface MessageAttachment {
  type: MediaMessageType;
  url: string;
  provider_id: string;
  mime_type: string | null;
  caption: string | null;
}
export const AUTHOR_TYPES = ['customer', 'ai', 'operator', 'system'] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];

/** Who wrote a message: an operator is named by the caller, the others have no id or name. */
export interface MessageAuthor {
  type: AuthorType;
  id: string | null;
  name: string | null;
}

/** How far a message sent through a channel's provider got (docs/api.md §4d). */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

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
@Index('ix_messages_team_created', ['teamId', 'createdAt'])
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

  @Column({ name: 'author_type', type: 'varchar', length: 16 })
  authorType: AuthorType;

  @Column({ name: 'author_id', type: 'varchar', length: 255, nullable: true })
  authorId: string | null;

  @Column({ name: 'author_name', type: 'varchar', length: 255, nullable: true })
  authorName: string | null;

  /** Null for a message not sent anywhere (the console's, a web chat's, a customer's). */
  @Column({ name: 'delivery_status', type: 'varchar', length: 16, nullable: true })
  deliveryStatus: DeliveryStatus | null;

  @Column({ name: 'delivery_error', type: 'varchar', length: 500, nullable: true })
  deliveryError: string | null;

  @TimeColumn('delivery_updated_at', { nullable: true })
  deliveryUpdatedAt: Date | null;
}
