import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { WebhookDeliveryEntity } from '../entities/webhook-delivery.entity';
import { EVENT_ID_PREFIX } from '../event-types';
import { MailMessage, HandoffMail } from '../mail/handoff-mail';
import { WebhookEventsRepository } from '../outbox/webhook-events.repository';
import { DeliveryOutcome, WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { nextAttemptAt } from '@/database/jobs/backoff';
import { AttemptResult, WebhookSender } from './webhook-sender';

/** Deliveries in flight at once in one process, and of one team. */
const CONCURRENCY = 32;
const PER_TEAM = 8;
/** An attempt takes at most the outbound timeout plus a few database round trips. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Delivers the outbox. A delivery is a job (see `JobWorker`): claimed with a lease that counts the
 * attempt, sent with no transaction open, and its outcome written in one statement only while the
 * claim holds, so a worker whose lease ran out cannot overwrite a newer attempt's outcome. Teams
 * take turns for the slots: a team's slow or silent endpoints hold at most `PER_TEAM` of them.
 * At least once under crashes, once per endpoint otherwise.
 */
@Injectable()
export class DeliveryWorker extends JobWorker<QueuedJob, WebhookDeliveryEntity> {
  protected readonly logger = new Logger(DeliveryWorker.name);
  private readonly retryMaxAgeMs: number;
  private readonly firstRetryS: number;

  constructor(
    db: Database,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: WebhookEventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly sender: WebhookSender,
    private readonly mail: HandoffMail,
    private readonly secrets: SecretBox,
    config: AppConfig,
  ) {
    super(db, {
      concurrency: CONCURRENCY,
      perTeam: PER_TEAM,
      leaseMs: config.outbound.timeoutMs + LEASE_MARGIN_MS,
      sweepIntervalMs: 1_000,
      sweepGraceMs: 1_000,
    });
    this.retryMaxAgeMs = config.webhooks.retryMaxAgeS * 1000;
    this.firstRetryS = config.webhooks.firstRetryS;
  }

  protected findDue(limit: number, perTeam: number, dueBy: Date): Promise<WebhookDeliveryEntity[]> {
    return this.deliveries.jobs.due(limit, perTeam, dueBy);
  }

  protected claim(job: QueuedJob): Promise<Claim<WebhookDeliveryEntity> | null> {
    return this.deliveries.jobs.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: QueuedJob, claim: Claim<WebhookDeliveryEntity>): Promise<boolean> {
    return this.deliveries.jobs.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.deliveries.jobs.releaseAll();
  }

  protected async perform(job: QueuedJob, { row: delivery, token }: Claim<WebhookDeliveryEntity>) {
    const event = await this.events.find(delivery.teamId, delivery.eventId);
    if (!event) {
      return;
    }
    const result =
      delivery.kind === 'email'
        ? await this.sendMail(JSON.parse(event.payload) as MailMessage)
        : await this.post(delivery, event.payload);
    if (!result) {
      return;
    }
    const outcome = this.outcome(delivery, result);
    // The endpoint first: once the log shows a delivery failed for good, the endpoint's state
    // already reflects it.
    if (delivery.endpointId && !result.ok && !result.final) {
      await this.noteEndpointFailure(delivery, outcome);
    }
    const recorded = await this.deliveries.jobs.settle(delivery.id, token, {
      status: outcome.status,
      last_status_code: outcome.lastStatusCode,
      last_error: outcome.lastError,
      next_attempt_at: outcome.nextAttemptAt,
      updated_at: new Date(),
    });
    const log = result.ok ? this.logger.debug.bind(this.logger) : this.logger.log.bind(this.logger);
    log(
      {
        delivery_id: delivery.id,
        event_id: `${EVENT_ID_PREFIX}${delivery.eventId}`,
        event_type: delivery.eventType,
        kind: delivery.kind,
        attempt: delivery.attempts,
        status_code: result.statusCode,
        error: result.error,
        status: recorded ? outcome.status : 'superseded',
      },
      result.ok ? 'Webhook delivered' : 'Webhook attempt failed',
    );
  }

  private async noteEndpointFailure(
    delivery: WebhookDeliveryEntity,
    outcome: DeliveryOutcome,
  ): Promise<void> {
    const { teamId, endpointId } = delivery;
    if (
      await this.endpoints.markFailing(
        teamId,
        endpointId!,
        delivery.createdAt,
        this.retryMaxAgeMs,
        outcome.status === 'failed',
        `Every delivery failed for ${describeDuration(this.retryMaxAgeMs)}; enable it again once it answers`,
      )
    ) {
      this.logger.warn({ webhook_id: endpointId }, 'Webhook endpoint disabled: it kept failing');
    }
  }

  /** Null when the endpoint went meanwhile (its deliveries went with it). */
  private async post(
    delivery: WebhookDeliveryEntity,
    payload: string,
  ): Promise<AttemptResult | null> {
    const endpoint = await this.endpoints.findOwned(delivery.teamId, delivery.endpointId!);
    if (!endpoint) {
      return null;
    }
    if (!endpoint.isEnabled) {
      return { ok: false, statusCode: null, error: 'endpoint disabled', final: true };
    }
    const result = await this.sender.send(
      endpoint.url,
      this.secrets.open(endpoint.secretSealed),
      `${EVENT_ID_PREFIX}${delivery.eventId}`,
      payload,
    );
    if (result.ok && endpoint.failingSince) {
      await this.endpoints.markHealthy(endpoint.teamId, endpoint.id);
    }
    return result;
  }

  private async sendMail(message: MailMessage): Promise<AttemptResult> {
    try {
      await this.mail.send(message);
      return { ok: true, statusCode: null, error: null };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      return { ok: false, statusCode: null, error: text.slice(0, 500) };
    }
  }

  private outcome(delivery: WebhookDeliveryEntity, result: AttemptResult): DeliveryOutcome {
    if (result.ok) {
      return {
        status: 'succeeded',
        lastStatusCode: result.statusCode,
        lastError: null,
        nextAttemptAt: null,
      };
    }
    const next = result.final
      ? null
      : nextAttemptAt(delivery.attempts, new Date(), delivery.retryUntil, this.firstRetryS);
    return {
      status: next ? 'pending' : 'failed',
      lastStatusCode: result.statusCode,
      lastError: result.error,
      nextAttemptAt: next,
    };
  }
}

function describeDuration(ms: number): string {
  return ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 1000)} s`;
}
