import { ApiProperty } from '@nestjs/swagger';
import {
  AUTHOR_TYPES,
  AuthorType,
  CUSTOMER_MESSAGE_TYPES,
  MESSAGE_ROLES,
  MessageEntity,
} from '../entities/message.entity';
import { isPrivate } from '../messages/message-draft';
import { StreamMessageEvent } from './message.dto';

export class CustomerAuthorDto {
  @ApiProperty({ enum: AUTHOR_TYPES }) type: AuthorType;
  @ApiProperty({ type: String, nullable: true, description: "An operator's name; null otherwise" })
  name: string | null;
}

/**
 * A message as the customer sees it (docs/api.md §7a): never a note, no action run, no operator
 * id, nothing of the inbox.
 */
export class CustomerMessageDto {
  @ApiProperty() id: string;
  @ApiProperty() conversation_id: string;
  @ApiProperty({ enum: MESSAGE_ROLES }) role: string;
  @ApiProperty() message: string;
  @ApiProperty({ enum: CUSTOMER_MESSAGE_TYPES }) message_type: string;
  @ApiProperty() created_at: string;
  @ApiProperty({ type: CustomerAuthorDto }) author: CustomerAuthorDto;
}

export class CustomerMessageWithAttachmentsDto extends CustomerMessageDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  attachments: unknown[];
}

function customerAuthor(type: AuthorType, name: string | null): CustomerAuthorDto {
  return { type, name: type === 'operator' ? name : null };
}

/** The customer's view of a stream event; null for a note. */
export function toCustomerEvent(event: StreamMessageEvent): CustomerMessageDto | null {
  if (event.private) {
    return null;
  }
  return {
    id: event.id,
    conversation_id: event.conversation_id,
    role: event.role,
    message: event.message,
    message_type: event.message_type,
    created_at: event.created_at,
    author: customerAuthor(event.author.type, event.author.name),
  };
}

export function toCustomerMessage(message: MessageEntity): CustomerMessageWithAttachmentsDto {
  if (isPrivate(message)) {
    throw new Error('A note is never shown to the customer');
  }
  return {
    id: message.id,
    conversation_id: message.conversationId,
    role: message.role,
    message: message.message,
    message_type: message.messageType,
    created_at: message.createdAt.toISOString(),
    author: customerAuthor(message.authorType, message.authorName),
    attachments: message.attachments,
  };
}
