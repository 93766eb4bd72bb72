import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, IsUrl, MaxLength } from 'class-validator';
import { NullableString } from '@/common/validation/string-fields';
import { OptionalNotNull } from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';
import { HTTP_URL } from './knowledge-base-create.dto';

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
