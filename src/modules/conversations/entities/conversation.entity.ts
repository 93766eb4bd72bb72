import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BooleanColumn, TimeColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';
import { CHANNEL_TYPES, ChannelType } from '@/modules/agents/dto/channel-types';

/** A conversation happens on one of the agent's channels. */
export const CONVERSATION_CHANNELS = CHANNEL_TYPES;
export type ConversationChannel = ChannelType;

/** Where the conversation is in a workflow flow: the next user message continues it. */
export const CONVERSATION_STATUSES = ['open', 'pending', 'snoozed', 'resolved'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const HANDOFF_SOURCES = ['rule', 'flow', 'model', 'no_answer', 'customer'] as const;
export type HandoffSource = (typeof HANDOFF_SOURCES)[number];

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
@Index('ix_conversations_team_created', ['teamId', 'createdAt'])
@Index('ix_conversations_agent_updated', ['agentId', 'updatedAt'])
@Index('ix_conversations_contact', ['contactId'])
@Index('ix_conversations_snoozed', ['status', 'snoozedUntil'])
@Index('ix_conversations_team_last_message', ['teamId', 'lastMessageAt'])
@Index('ix_conversations_team_status', ['teamId', 'status', 'lastMessageAt'])
@Index('ix_conversations_team_assignee', ['teamId', 'assigneeId', 'status', 'lastMessageAt'])
@Index('ix_conversations_team_attention', [
  'teamId',
  'needsAttention',
  'status',
  'lastMessageAt',
  'priority',
])
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

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status: ConversationStatus;

  @TimeColumn('snoozed_until', { nullable: true })
  snoozedUntil: Date | null;

  @Column({ name: 'assignee_id', type: 'varchar', length: 255, nullable: true })
  assigneeId: string | null;

  @Column({ name: 'assignee_name', type: 'varchar', length: 255, nullable: true })
  assigneeName: string | null;

  @Column({ type: 'simple-json', default: '[]' })
  labels: string[];

  @Column({ type: 'varchar', length: 16, default: 'normal' })
  priority: Priority;

  /** The latest hand-off: why, from where, when (all null before the first). */
  @Column({ name: 'handoff_reason', type: 'varchar', length: 500, nullable: true })
  handoffReason: string | null;

  @Column({ name: 'handoff_source', type: 'varchar', length: 16, nullable: true })
  handoffSource: HandoffSource | null;

  @TimeColumn('handoff_at', { nullable: true })
  handoffAt: Date | null;

  /** The lease of the job that ends the snooze (SnoozeEnds). */
  @TimeColumn('snooze_lease_until', { nullable: true })
  snoozeLeaseUntil: Date | null;

  @Column({ name: 'snooze_lease_token', type: 'varchar', length: 36, nullable: true })
  snoozeLeaseToken: string | null;

  /** `needs_attention` was announced in the current stretch of the AI being paused. */
  @BooleanColumn('pause_announced', false)
  pauseAnnounced: boolean;
}
