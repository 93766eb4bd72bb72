import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { IsPlainObject, OptionalNotNull } from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';
import { NullableString, RequiredString } from '@/common/validation/string-fields';
import { AUTHOR_TYPES, AuthorType } from '../entities/message.entity';

/** The operator who writes, as the caller's own system names them (the service has no users). */
export class OperatorDto {
  @NullableString(LIMITS.name, { description: "The operator's id in the caller's system" })
  id?: string | null;

  @NullableString(LIMITS.name)
  name?: string | null;
}

/** An optional `author` field naming the operator. */
export const OptionalOperator = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: OperatorDto, description }),
    OptionalNotNull(),
    IsPlainObject(),
    ValidateNested(),
    Type(() => OperatorDto),
  );

export class MessageAuthorDto {
  @ApiProperty({ enum: AUTHOR_TYPES }) type: AuthorType;
  @ApiProperty({ type: String, nullable: true }) id: string | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
}

/** POST `…/{conversationId}/notes`: a private note between staff. */
export class NoteCreateDto {
  @RequiredString(LIMITS.message)
  text: string;

  @OptionalOperator('The operator writing the note')
  author?: OperatorDto;
}
