import { newId } from '@/common/ids';
import { DeliveryKind, WebhookDeliveryEntity } from '../entities/webhook-delivery.entity';
import { WebhookEventEntity } from '../entities/webhook-event.entity';
import { EVENT_ID_PREFIX } from '../event-types';

/** An event of the outbox; `fannedOut` when its deliveries are written with it. */
export function newEvent(
  teamId: string,
  type: string,
  payloadOf: (id: string, createdAt: Date) => string,
  fannedOut: boolean,
): WebhookEventEntity {
  const id = newId();
  const createdAt = new Date();
  return {
    id,
    teamId,
    type,
    payload: payloadOf(`${EVENT_ID_PREFIX}${id}`, createdAt),
    createdAt,
    fannedOutAt: fannedOut ? createdAt : null,
    leaseUntil: null,
    leaseToken: null,
  };
}

/** The JSON body every delivery of a webhook event sends (and signs). */
export function webhookPayload(type: string, data: object) {
  return (eventId: string, createdAt: Date) =>
    JSON.stringify({ id: eventId, type, created_at: createdAt.toISOString(), data });
}

/** One delivery of `event`, due now and retried until `retryMaxAgeMs` after the event. */
export function newDelivery(
  event: WebhookEventEntity,
  retryMaxAgeMs: number,
  target: { kind: DeliveryKind; endpointId?: string; conversationId?: string; recipient?: string },
): WebhookDeliveryEntity {
  const now = new Date();
  return {
    id: newId(),
    teamId: event.teamId,
    kind: target.kind,
    eventId: event.id,
    eventType: event.type,
    endpointId: target.endpointId ?? null,
    conversationId: target.conversationId ?? null,
    recipient: target.recipient ?? null,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    nextAttemptAt: now,
    retryUntil: new Date(event.createdAt.getTime() + retryMaxAgeMs),
    leaseUntil: null,
    leaseToken: null,
    createdAt: now,
    updatedAt: now,
  };
}
