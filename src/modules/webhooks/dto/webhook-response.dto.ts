import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../event-types';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

export class WebhookResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events: WebhookEventType[];
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() is_enabled: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the service turned the endpoint off (it kept failing); null otherwise',
  })
  disabled_reason: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class WebhookWithSecretResponseDto extends WebhookResponseDto {
  @ApiProperty({ description: 'The signing secret (whsec_…), shown only in this response' })
  secret: string;
}

export function toWebhookResponse(endpoint: WebhookEndpointEntity): WebhookResponseDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    is_enabled: endpoint.isEnabled,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}
