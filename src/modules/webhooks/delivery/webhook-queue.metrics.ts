import { Injectable } from '@nestjs/common';
import { MetricsService } from '@/common/metrics/metrics.service';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';

/** The outbox: deliveries (webhooks and hand-off mails) not yet delivered, and those due now. */
@Injectable()
export class WebhookQueueMetrics {
  constructor(deliveries: WebhookDeliveriesRepository, metrics: MetricsService) {
    metrics.gauge(
      'console_webhook_queue_depth',
      'Webhook deliveries and hand-off mails not yet delivered, retries included (all instances)',
      async () => (await deliveries.backlog()).pending,
    );
    metrics.gauge(
      'console_webhook_queue_due',
      'Webhook deliveries and hand-off mails due now (a backlog the workers have not caught up with)',
      async () => (await deliveries.backlog()).due,
    );
  }
}
