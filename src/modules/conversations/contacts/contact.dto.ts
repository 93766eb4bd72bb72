import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { IsSort } from '@/common/pagination/sort';
import { IsPlainObject, OptionalNotNull } from '@/common/validation/decorators';
import { IsE164 } from '@/common/validation/e164';
import { LIMITS } from '@/common/validation/limits';
import { NullableString } from '@/common/validation/string-fields';
import { CONVERSATION_CHANNELS, ConversationChannel } from '../entities/conversation.entity';
import { ContactEntity } from './contact.entity';

/** The longest E.164 number: a plus sign and 15 digits. */
const E164_LENGTH = 16;

export class ContactListQueryDto extends ListQueryDto {
  @IsSort(['created_at', 'updated_at', 'full_name'], '-created_at')
  override sort?: string;
}

/** What a caller may tell of a contact: with a message, or when editing it. Null clears. */
export class ContactDetailsDto {
  @NullableString(LIMITS.name)
  full_name?: string | null;

  @ApiPropertyOptional({ type: String, format: 'email', maxLength: LIMITS.name, nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.name)
  email?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: E164_LENGTH,
    nullable: true,
    description: 'E.164, e.g. +14155550123',
  })
  @IsOptional()
  @IsE164()
  phone_number?: string | null;
}

export type ContactDetails = Pick<ContactDetailsDto, 'full_name' | 'email' | 'phone_number'>;

/** PATCH `/contacts/{id}`. */
export class ContactUpdateDto extends ContactDetailsDto {
  @NullableString(LIMITS.message, { description: "Staff's notes on the contact" })
  notes?: string | null;
}

/** An optional `contact` field on a message: fills the details the contact does not have yet. */
export const OptionalContactDetails = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: ContactDetailsDto,
      description:
        "Fills the channel user's contact: each detail given is set when the contact has none yet",
    }),
    OptionalNotNull(),
    IsPlainObject(),
    ValidateNested(),
    Type(() => ContactDetailsDto),
  );

export class ContactResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: CONVERSATION_CHANNELS }) channel_type: ConversationChannel;
  @ApiProperty() channel_user_id: string;
  @ApiProperty({ type: String, nullable: true }) full_name: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) phone_number: string | null;
  @ApiProperty({ type: String, nullable: true }) profile_picture: string | null;
  @ApiProperty({ type: String, nullable: true }) notes: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class ContactDetailResponseDto extends ContactResponseDto {
  @ApiProperty({ type: [String], description: "The contact's conversations, oldest first" })
  conversation_ids: string[];
}

export function toContactResponse(contact: ContactEntity): ContactResponseDto {
  return {
    id: contact.id,
    channel_type: contact.channelType,
    channel_user_id: contact.channelUserId,
    full_name: contact.fullName,
    email: contact.email,
    phone_number: contact.phoneNumber,
    profile_picture: contact.profilePicture,
    notes: contact.notes,
    created_at: contact.createdAt.toISOString(),
    updated_at: contact.updatedAt.toISOString(),
  };
}

export function toContactDetail(
  contact: ContactEntity,
  conversationIds: string[],
): ContactDetailResponseDto {
  return { ...toContactResponse(contact), conversation_ids: conversationIds };
}
