import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, IsUrl, MaxLength, ValidateIf } from 'class-validator';
import { NullableString, RequiredString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';
import { OnlyWhen } from '@/common/validation/only-when';
import { KnowledgeBaseType } from '../entities/knowledge-base.entity';

export const HTTP_URL = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
};

/**
 * A field of the knowledge bases of `type` only: required for them, refused for the others.
 * Listed innermost first, as a stack of decorators is applied: the messages keep their order.
 */
const ForType = (type: KnowledgeBaseType, docs: ApiPropertyOptions) =>
  applyDecorators(
    ValidateIf(
      (kb: KnowledgeBaseCreateDto, value: unknown) => kb.type === type || value !== undefined,
    ),
    OnlyWhen<KnowledgeBaseCreateDto>((kb) => kb.type === type, `type is ${type}`),
    ApiPropertyOptional(docs),
  );

export class KnowledgeBaseCreateDto {
  @ApiProperty({ enum: ['text', 'url'] })
  @IsIn(['text', 'url'])
  type: KnowledgeBaseType;

  @RequiredString(LIMITS.name)
  name: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @ForType('text', { description: 'Required for type text', maxLength: LIMITS.knowledgeContent })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.knowledgeContent)
  content?: string;

  @ForType('url', { description: 'Required for type url: an http(s) URL', maxLength: LIMITS.url })
  @IsString()
  @MaxLength(LIMITS.url)
  @IsUrl(HTTP_URL, { message: 'must be an http(s) URL' })
  url?: string;
}
