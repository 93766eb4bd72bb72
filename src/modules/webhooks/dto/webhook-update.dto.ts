import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OptionalNotNull } from '@/common/validation/decorators';
import { PatchType } from '@/common/validation/patch-type';
import { WebhookCreateDto } from './webhook-create.dto';

export class WebhookUpdateDto extends PatchType(WebhookCreateDto) {
  @ApiPropertyOptional({ description: 'Turning an endpoint back on clears its disabled_reason' })
  @OptionalNotNull()
  @IsBoolean()
  is_enabled?: boolean;
}
