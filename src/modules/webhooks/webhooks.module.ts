import { Module } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { IdempotencyModule } from '@/common/idempotency/idempotency.module';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { DeliveryWorker } from './delivery/delivery-worker.service';
import { FanoutWorker } from './delivery/fanout-worker.service';
import { WebhookSender } from './delivery/webhook-sender';
import { HandoffMail } from './mail/handoff-mail';
import { WebhookEventsRepository } from './outbox/webhook-events.repository';
import { WebhookRetention } from './outbox/webhook-retention';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEvents } from './webhook-events.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { WebhookQueueMetrics } from './delivery/webhook-queue.metrics';

/**
 * Webhook endpoints, the events outbox and its delivery worker. It depends on the common and
 * database layers only, so that any feature module can import it to call `WebhookEvents.emit`
 * without an import cycle.
 */
@Module({
  imports: [IdempotencyModule, OutboundModule],
  controllers: [WebhooksController],
  providers: [
    WebhookQueueMetrics,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookEventsRepository,
    WebhookRetention,
    WebhookEvents,
    WebhooksService,
    DeliveryWorker,
    FanoutWorker,
    WebhookSender,
    HandoffMail,
    SecretBox,
  ],
  exports: [WebhookEvents],
})
export class WebhooksModule {}
