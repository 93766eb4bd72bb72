import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BooleanColumn, TimeColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';
import { CHANNEL_TYPES, ChannelType } from '@/modules/agents/dto/channel-types';

/** A conversation happens on one of the agent's channels. */
export const CONVERSATION_CHANNELS = CHANNEL_TYPES;
export type ConversationChannel = ChannelType;

/** Where the conversation is in a workflow flow: the next user message continues it. */
export interface FlowState {
  flow: string;
  step: number;
}

@Entity('conversations')
// One conversation per person per channel: concurrent first messages meet here.
@Unique('uq_conversations_channel_user', [
  'agentId',
  'channelType',
  'channelUserId',
  'isTestChannel',
])
@Index('ix_conversations_agent_last_message', ['agentId', 'lastMessageAt'])
@Index('ix_conversations_agent_created', ['agentId', 'createdAt'])
@Index('ix_conversations_agent_updated', ['agentId', 'updatedAt'])
@Index('ix_conversations_contact', ['contactId'])
export class ConversationEntity extends AgentScopedEntity {
  @Column({ name: 'channel_type', type: 'varchar', length: 32 })
  channelType: ConversationChannel;

  @Column({ name: 'channel_id', type: 'varchar', length: 255, nullable: true })
  channelId: string | null;

  @Column({ name: 'channel_user_id', type: 'varchar', length: 255 })
  channelUserId: string;

  @Column({ name: 'channel_user_username', type: 'varchar', length: 255, nullable: true })
  channelUserUsername: string | null;

  @BooleanColumn('is_test_channel', false)
  isTestChannel: boolean;

  @BooleanColumn('is_ai_chat_paused', false)
  isAiChatPaused: boolean;

  @BooleanColumn('needs_attention', false)
  needsAttention: boolean;

  @TimeColumn('last_message_at', { nullable: true })
  lastMessageAt: Date | null;

  @TimeColumn('last_seen', { nullable: true })
  lastSeen: Date | null;

  @Column({ name: 'last_message_preview', type: 'varchar', length: 255, nullable: true })
  lastMessagePreview: string | null;

  @Column({ name: 'full_name', type: 'varchar', length: 255, nullable: true })
  fullName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Column({ name: 'phone_number', type: 'varchar', length: 64, nullable: true })
  phoneNumber: string | null;

  @Column({ name: 'profile_picture', type: 'varchar', length: 2048, nullable: true })
  profilePicture: string | null;

  /** The sequence number of the newest message: messages are numbered in commit order. */
  @Column({ name: 'last_seq', type: 'integer' })
  lastSeq: number;

  @Column({ name: 'flow_state', type: 'simple-json', nullable: true })
  flowState: FlowState | null;

  /** The channel user's contact (contacts/), made with the conversation's first message. */
  @Column({ name: 'contact_id', type: 'varchar', length: 36, nullable: true })
  @ForeignKey('contacts', { onDelete: 'SET NULL' })
  contactId: string | null;

  /** What the customer answered to the flows' `collect` steps, by key: for later steps and tools. */
  @Column({ type: 'simple-json', nullable: true })
  context: Record<string, string> | null;
}
