import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';
import { OptionalNotNull } from '@/common/validation/decorators';
import { BodyId } from '@/common/validation/id-fields';
import { LIMITS } from '@/common/validation/limits';
import { NullableString, RequiredString } from '@/common/validation/string-fields';
import { CONVERSATION_CHANNELS, ConversationChannel } from '../entities/conversation.entity';
import {
  DELIVERY_STATUSES,
  DeliveryStatus,
  MESSAGE_ROLES,
  MESSAGE_TYPES,
  MessageEntity,
  MessageRole,
  MessageType,
} from '../entities/message.entity';
import { isPrivate } from '../messages/message-draft';
import { ContactDetailsDto, OptionalContactDetails } from '../contacts/contact.dto';
import { MessageAuthorDto, OperatorDto, OptionalOperator } from './message-author.dto';

export class MessageCreateDto {
  @RequiredString(LIMITS.message)
  message: string;

  @ApiPropertyOptional({
    enum: MESSAGE_ROLES,
    default: 'user',
    description: 'assistant: a human operator; gets no reply',
  })
  @OptionalNotNull()
  @IsIn(MESSAGE_ROLES)
  role?: MessageRole;

  @OptionalOperator('The operator sending an assistant message; not allowed on a user message')
  author?: OperatorDto;

  @OptionalContactDetails()
  contact?: ContactDetailsDto;
}

/** Appends to `conversation_id`, or to the conversation of the channel user, created if new. */
export class ChannelMessageCreateDto extends MessageCreateDto {
  @BodyId()
  @NullableString(64)
  conversation_id?: string | null;

  @ApiPropertyOptional({ enum: CONVERSATION_CHANNELS, nullable: true })
  @IsOptional()
  @IsIn(CONVERSATION_CHANNELS)
  channel_type?: ConversationChannel | null;

  @NullableString(LIMITS.name)
  channel_user_id?: string | null;

  @NullableString(LIMITS.name)
  channel_username?: string | null;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  is_test_channel?: boolean;
}

export class MessageListQueryDto extends ListQueryDto {
  @IsSort(['created_at'], 'created_at')
  override sort?: string;
}

export class MessageActionDto {
  @ApiProperty() run_id: string;
  @ApiProperty() action_name: string;
  @ApiProperty({ enum: ['pending_approval', 'running', 'succeeded', 'failed', 'rejected'] })
  status: string;
}

export class MessageDeliveryDto {
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: DeliveryStatus;
  @ApiProperty({ type: String, nullable: true, description: "The provider's reason, when failed" })
  error: string | null;
  @ApiProperty() updated_at: string;
}

export class MessageResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() conversation_id: string;
  @ApiProperty({ enum: MESSAGE_ROLES }) role: MessageRole;
  @ApiProperty() message: string;
  @ApiProperty({ enum: MESSAGE_TYPES, description: "'note': a private note" })
  message_type: MessageType;
  @ApiProperty({ example: '2026-11-22T10:15:30.123Z' }) created_at: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  attachments: unknown[];
  @ApiProperty({
    type: MessageActionDto,
    nullable: true,
    description: "The action run an 'action' message reports; null on other messages",
  })
  action: MessageActionDto | null;
  @ApiProperty({ type: MessageAuthorDto }) author: MessageAuthorDto;
  @ApiProperty({ description: 'True only for private notes, which the customer never sees' })
  private: boolean;
  @ApiProperty({
    type: MessageDeliveryDto,
    nullable: true,
    description: "Sent through a channel's provider: how far it got; null for other messages",
  })
  delivery: MessageDeliveryDto | null;
}

/** What a stream frame carries (docs/api.md §5). */
export type StreamMessageEvent = Omit<MessageResponseDto, 'attachments' | 'delivery'>;

export function toDelivery(message: MessageEntity): MessageDeliveryDto | null {
  return message.deliveryStatus && message.deliveryUpdatedAt
    ? {
        status: message.deliveryStatus,
        error: message.deliveryError,
        updated_at: message.deliveryUpdatedAt.toISOString(),
      }
    : null;
}

export function toStreamMessageEvent(message: MessageEntity): StreamMessageEvent {
  return {
    id: message.id,
    conversation_id: message.conversationId,
    role: message.role,
    message: message.message,
    message_type: message.messageType,
    created_at: message.createdAt.toISOString(),
    action: message.action ?? null,
    author: { type: message.authorType, id: message.authorId, name: message.authorName },
    private: isPrivate(message),
  };
}

export function toMessageResponse(message: MessageEntity): MessageResponseDto {
  return {
    ...toStreamMessageEvent(message),
    attachments: message.attachments,
    delivery: toDelivery(message),
  };
}
