import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
