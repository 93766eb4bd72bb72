import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, IsUrl, MaxLength, ValidateIf } from 'class-validator';
import { NullableString, RequiredString } from '@/common/validation/string-fields';
import { OptionalNotNull } from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';
import { OnlyWhen } from '@/common/validation/only-when';
import { KnowledgeBaseType } from '../knowledge-base.entity';

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class KnowledgeBaseCreateDto {
  @ApiProperty({ enum: ['text', 'url'] })
  @IsIn(['text', 'url'])
  type: KnowledgeBaseType;

  @RequiredString(LIMITS.name)
  name: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({
    description: 'Required for type text',
    maxLength: LIMITS.knowledgeContent,
  })
  @OnlyWhen<KnowledgeBaseCreateDto>((kb) => kb.type === 'text', 'type is text')
  @ValidateIf((kb: KnowledgeBaseCreateDto) => kb.type === 'text' || kb.content !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.knowledgeContent)
  content?: string;

  @ApiPropertyOptional({
    description: 'Required for type url: an http(s) URL',
    maxLength: LIMITS.url,
  })
  @OnlyWhen<KnowledgeBaseCreateDto>((kb) => kb.type === 'url', 'type is url')
  @ValidateIf((kb: KnowledgeBaseCreateDto) => kb.type === 'url' || kb.url !== undefined)
  @IsString()
  @MaxLength(LIMITS.url)
  @IsUrl(HTTP_URL, { message: 'must be an http(s) URL' })
  url?: string;
}

/** The type of a knowledge base is fixed; `content` applies to text ones, `url` to url ones. */
export class KnowledgeBaseUpdateDto {
  @ApiPropertyOptional({ maxLength: LIMITS.name })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.name)
  name?: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ maxLength: LIMITS.knowledgeContent })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.knowledgeContent)
  content?: string;

  @ApiPropertyOptional({ maxLength: LIMITS.url })
  @OptionalNotNull()
  @IsString()
  @MaxLength(LIMITS.url)
  @IsUrl(HTTP_URL, { message: 'must be an http(s) URL' })
  url?: string;
}
