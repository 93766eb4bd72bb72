import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import type { ContactEntity } from '../contacts/contact.entity';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { ConversationUsageDto } from '@/modules/usage/dto/usage.dto';
import { IsSort } from '@/common/pagination/sort';
import {
  CONVERSATION_CHANNELS,
  CONVERSATION_STATUSES,
  ConversationChannel,
  ConversationEntity,
  ConversationStatus,
  Priority,
  PRIORITIES,
} from '../entities/conversation.entity';
import { AssigneeResponseDto, HandoffResponseDto } from './conversation-update.dto';
import { ConversationFiltersDto } from './conversation-filters.dto';

const CONVERSATION_SORT_FIELDS = [
  'created_at',
  'updated_at',
  'last_message_at',
  'priority',
] as const;

export class ConversationListQueryDto extends IntersectionType(
  ListQueryDto,
  ConversationFiltersDto,
) {
  @ApiPropertyOptional({ enum: CONVERSATION_STATUSES })
  @IsOptional()
  @IsIn(CONVERSATION_STATUSES)
  status?: ConversationStatus;

  @IsSort(CONVERSATION_SORT_FIELDS, '-last_message_at')
  override sort?: string;
}

export class AiStatusDto {
  @ApiProperty()
  @IsBoolean()
  is_ai_chat_paused: boolean;
}

export class ConversationResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: CONVERSATION_CHANNELS }) channel_type: ConversationChannel;
  @ApiProperty({ type: String, nullable: true }) channel_id: string | null;
  @ApiProperty() channel_user_id: string;
  @ApiProperty({ type: String, nullable: true }) channel_user_username: string | null;
  @ApiProperty() is_test_channel: boolean;
  @ApiProperty() is_ai_chat_paused: boolean;
  @ApiProperty() needs_attention: boolean;
  @ApiProperty({ type: String, nullable: true }) last_message_at: string | null;
  @ApiProperty({ type: String, nullable: true }) last_seen: string | null;
  @ApiProperty({ type: String, nullable: true }) last_message_preview: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The channel user's contact" })
  contact_id: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  @ApiProperty() agent_id: string;
  @ApiProperty({ enum: CONVERSATION_STATUSES }) status: ConversationStatus;
  @ApiProperty({ type: String, nullable: true }) snoozed_until: string | null;
  @ApiProperty({ type: AssigneeResponseDto, nullable: true }) assignee: AssigneeResponseDto | null;
  @ApiProperty({ type: [String] }) labels: string[];
  @ApiProperty({ enum: PRIORITIES }) priority: Priority;
  @ApiProperty({ type: HandoffResponseDto, nullable: true }) handoff: HandoffResponseDto | null;
}

export class ConversationDetailResponseDto extends ConversationResponseDto {
  @ApiProperty({ type: String, nullable: true }) full_name: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) phone_number: string | null;
  @ApiProperty({ type: String, nullable: true }) profile_picture: string | null;
  @ApiProperty({ type: ConversationUsageDto, description: "The model's calls in it, summed" })
  usage: ConversationUsageDto;
}

export class AiStatusResponseDto {
  @ApiProperty() is_ai_chat_paused: boolean;
}

export function toConversationResponse(conversation: ConversationEntity): ConversationResponseDto {
  return {
    id: conversation.id,
    channel_type: conversation.channelType,
    channel_id: conversation.channelId,
    channel_user_id: conversation.channelUserId,
    channel_user_username: conversation.channelUserUsername,
    is_test_channel: conversation.isTestChannel,
    is_ai_chat_paused: conversation.isAiChatPaused,
    needs_attention: conversation.needsAttention,
    last_message_at: conversation.lastMessageAt?.toISOString() ?? null,
    last_seen: conversation.lastSeen?.toISOString() ?? null,
    last_message_preview: conversation.lastMessagePreview,
    contact_id: conversation.contactId,
    created_at: conversation.createdAt.toISOString(),
    updated_at: conversation.updatedAt.toISOString(),
    ...inboxFields(conversation),
  };
}

function inboxFields(conversation: ConversationEntity) {
  const { assigneeId, handoffReason, handoffSource, handoffAt } = conversation;
  return {
    agent_id: conversation.agentId,
    status: conversation.status,
    snoozed_until: conversation.snoozedUntil?.toISOString() ?? null,
    assignee: assigneeId ? { id: assigneeId, name: conversation.assigneeName } : null,
    labels: conversation.labels,
    priority: conversation.priority,
    handoff:
      handoffReason !== null && handoffSource && handoffAt
        ? { reason: handoffReason, source: handoffSource, at: handoffAt.toISOString() }
        : null,
  };
}

/** The conversation with the details of its contact (null ones when it has none) and its usage. */
export function toConversationDetail(
  conversation: ConversationEntity,
  contact: ContactEntity | null,
  usage: ConversationUsageDto,
): ConversationDetailResponseDto {
  return {
    ...toConversationResponse(conversation),
    full_name: contact?.fullName ?? null,
    email: contact?.email ?? null,
    phone_number: contact?.phoneNumber ?? null,
    profile_picture: contact?.profilePicture ?? null,
    usage,
  };
}
