import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { WebhookEventEntity } from '../entities/webhook-event.entity';
import { newDelivery } from '../outbox/outbox-rows';
import { WebhookEventsRepository } from '../outbox/webhook-events.repository';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { DeliveryWorker } from './delivery-worker.service';

/**
 * Writes an event's deliveries, one per endpoint of its team that was enabled and subscribed when
 * the event happened, in a short transaction of its own after the change's has committed; then
 * hands them to the delivery worker.
 */
@Injectable()
export class FanoutWorker extends JobWorker<QueuedJob, WebhookEventEntity> {
  protected readonly logger = new Logger(FanoutWorker.name);
  private readonly retryMaxAgeMs: number;

  constructor(
    db: Database,
    private readonly events: WebhookEventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly worker: DeliveryWorker,
    config: AppConfig,
  ) {
    super(db, {
      concurrency: 8,
      perTeam: 2,
      leaseMs: 30_000,
      sweepIntervalMs: 1_000,
      sweepGraceMs: 1_000,
    });
    this.retryMaxAgeMs = config.webhooks.retryMaxAgeS * 1000;
  }

  protected findDue(limit: number, perTeam: number, dueBy: Date): Promise<WebhookEventEntity[]> {
    return this.events.fanouts.due(limit, perTeam, dueBy);
  }

  protected claim(job: QueuedJob): Promise<Claim<WebhookEventEntity> | null> {
    return this.events.fanouts.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: QueuedJob, claim: Claim<WebhookEventEntity>): Promise<boolean> {
    return this.events.fanouts.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.events.fanouts.releaseAll();
  }

  protected async perform(job: QueuedJob, { row: event, token }: Claim<WebhookEventEntity>) {
    const settled = await this.events.fanouts.settleWith(
      event.id,
      token,
      { fanned_out_at: new Date() },
      async () => {
        const endpointIds = await this.endpoints.subscribedTo(
          event.teamId,
          event.type,
          event.createdAt,
        );
        const deliveries = endpointIds.map((endpointId) =>
          newDelivery(event, this.retryMaxAgeMs, { kind: 'webhook', endpointId }),
        );
        await this.deliveries.insert(deliveries);
        return deliveries;
      },
    );
    settled?.result.forEach((delivery) => this.worker.schedule(delivery));
  }
}
