import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsHttpUrl } from '@/config/http-url';
import { HasNoUrlCredentials } from '@/common/validation/decorators';
import { LIMITS } from '@/common/validation/limits';
import { NullableString } from '@/common/validation/string-fields';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../event-types';

export class WebhookCreateDto {
  @ApiProperty({ description: 'An http(s) URL on a public address', maxLength: LIMITS.url })
  @IsString()
  @MaxLength(LIMITS.url)
  @IsHttpUrl()
  @HasNoUrlCredentials()
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, minItems: 1, uniqueItems: true })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique({ message: 'must not repeat an event type' })
  @IsIn(WEBHOOK_EVENT_TYPES, {
    each: true,
    message: `each value must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  })
  events: WebhookEventType[];

  @NullableString(LIMITS.description)
  description?: string | null;
}
