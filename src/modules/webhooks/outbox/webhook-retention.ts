import { Injectable } from '@nestjs/common';
import { RetentionSweeper } from '@/database/jobs/retention';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookEventsRepository } from './webhook-events.repository';

/** Finished deliveries go after RETENTION_DAYS, then the events left with none. */
@Injectable()
export class WebhookRetention {
  constructor(
    retention: RetentionSweeper,
    deliveries: WebhookDeliveriesRepository,
    events: WebhookEventsRepository,
  ) {
    retention.register('finished webhook deliveries', (cutoff, limit) =>
      deliveries.purgeFinished(cutoff, limit),
    );
    retention.register('delivered webhook events', (cutoff, limit) =>
      events.purgeDelivered(cutoff, limit),
    );
  }
}
