import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { NullableString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';

export class PipedreamConfigureDto {
  @ApiProperty({ example: 'google_drive', description: 'Pipedream app slug' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,99}$/, {
    message: 'must be a Pipedream app slug such as google_drive',
  })
  app_slug: string;

  @NullableString(LIMITS.name)
  app_name?: string | null;

  @NullableString(LIMITS.url)
  @Matches(/^https?:\/\/\S+$/i, { message: 'must be an http(s) URL' })
  app_icon?: string | null;
}
