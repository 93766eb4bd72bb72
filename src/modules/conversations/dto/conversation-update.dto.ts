import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import { IsPlainObject, OptionalNotNull } from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';
import { NullableString, RequiredString } from '@/common/validation/string-fields';
import {
  CONVERSATION_STATUSES,
  ConversationStatus,
  PRIORITIES,
  Priority,
} from '../entities/conversation.entity';

export const MAX_LABELS = 20;
export const MAX_LABEL_LENGTH = 50;

/** The operator a conversation is assigned to, as the caller's own system names them. */
export class AssigneeDto {
  @RequiredString(LIMITS.name, { description: "The operator's id in the caller's system" })
  id: string;

  @NullableString(LIMITS.name)
  name?: string | null;
}

/** PATCH `/agents/{agentId}/conversations/{conversationId}`: the inbox fields. */
export class ConversationUpdateDto {
  @ApiPropertyOptional({ enum: CONVERSATION_STATUSES })
  @OptionalNotNull()
  @IsIn(CONVERSATION_STATUSES)
  status?: ConversationStatus;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a snooze ends (required, in the future, with status snoozed)',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  snoozed_until?: string | null;

  @ApiPropertyOptional({ type: AssigneeDto, nullable: true, description: 'null unassigns' })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested()
  @Type(() => AssigneeDto)
  assignee?: AssigneeDto | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH },
    maxItems: MAX_LABELS,
    description: `At most ${MAX_LABELS} labels of 1 to ${MAX_LABEL_LENGTH} characters`,
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_LABELS)
  @IsString({ each: true })
  @Length(1, MAX_LABEL_LENGTH, { each: true })
  labels?: string[];

  @ApiPropertyOptional({ enum: PRIORITIES })
  @OptionalNotNull()
  @IsIn(PRIORITIES)
  priority?: Priority;
}

export class AssigneeResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
}

export class HandoffResponseDto {
  @ApiProperty() reason: string;
  @ApiProperty({ enum: ['rule', 'flow', 'model', 'no_answer', 'customer'] }) source: string;
  @ApiProperty() at: string;
}
