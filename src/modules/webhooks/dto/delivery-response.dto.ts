import { ApiProperty } from '@nestjs/swagger';
import { EVENT_ID_PREFIX } from '../event-types';
import {
  DELIVERY_STATUSES,
  DeliveryStatus,
  WebhookDeliveryEntity,
} from '../entities/webhook-delivery.entity';

export class DeliveryResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'evt_0193…' }) event_id: string;
  @ApiProperty() event_type: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: DeliveryStatus;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: 'integer', nullable: true }) last_status_code: number | null;
  @ApiProperty({ type: String, nullable: true }) last_error: string | null;
  @ApiProperty({ type: String, nullable: true }) next_attempt_at: string | null;
  @ApiProperty() created_at: string;
}

export function toDeliveryResponse(delivery: WebhookDeliveryEntity): DeliveryResponseDto {
  return {
    id: delivery.id,
    event_id: `${EVENT_ID_PREFIX}${delivery.eventId}`,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
  };
}
