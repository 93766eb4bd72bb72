import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Semaphore } from 'async-mutex';
import { SecretBox } from '@/common/crypto/secret-box';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { WebhookDeliveryEntity } from '../entities/webhook-delivery.entity';
import { EVENT_ID_PREFIX } from '../event-types';
import { MailMessage, HandoffMail } from '../mail/handoff-mail';
import { DeliveryOutcome, WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { nextAttemptAt } from './backoff';
import { AttemptResult, WebhookSender } from './webhook-sender';

const SWEEP_INTERVAL_MS = 1_000;
/** A delivery handed to its own process's worker at commit is left to it this long. */
const SWEEP_GRACE_MS = 1_000;
const SWEEP_BATCH = 100;
/** Deliveries in flight at once in one process. */
const CONCURRENCY = 32;
/** An attempt takes at most the outbound timeout plus a few database round trips. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Delivers the outbox. A delivery is leased (claimed with a deadline, counting the attempt), sent
 * with no transaction open, and its outcome written in one short statement. A process that dies
 * mid-delivery leaves a lease that runs out; the sweep of any instance (every second, and at start)
 * then takes the delivery again: at least once under crashes, once per endpoint otherwise, as a
 * claim succeeds for only one worker.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly slots = new Semaphore(CONCURRENCY);
  private readonly inFlight = new Set<string>();
  private readonly leaseMs: number;
  private readonly retryMaxAgeMs: number;
  private readonly firstRetryS: number;
  private sweeper?: NodeJS.Timeout;
  private sweeping = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly sender: WebhookSender,
    private readonly mail: HandoffMail,
    private readonly secrets: SecretBox,
    config: AppConfig,
  ) {
    this.leaseMs = config.outbound.timeoutMs + LEASE_MARGIN_MS;
    this.retryMaxAgeMs = config.webhooks.retryMaxAgeS * 1000;
    this.firstRetryS = config.webhooks.firstRetryS;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.db.kind === 'sqlite') {
      await this.deliveries.releaseAllLeases();
    }
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    void this.sweep(new Date());
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
  }

  schedule(ids: string[]): void {
    for (const id of ids) {
      if (this.stopped || this.inFlight.has(id)) {
        continue;
      }
      this.inFlight.add(id);
      void this.slots
        .runExclusive(() => this.process(id))
        .catch((error: unknown) => {
          this.logger.error({ err: error, delivery_id: id }, 'Webhook delivery failed; will retry');
        })
        .finally(() => this.inFlight.delete(id));
    }
  }

  private async sweep(dueBy = new Date(Date.now() - SWEEP_GRACE_MS)): Promise<void> {
    if (this.sweeping || this.stopped) {
      return;
    }
    this.sweeping = true;
    try {
      const free = CONCURRENCY * 2 - this.inFlight.size;
      if (free > 0) {
        const due = await this.deliveries.due(Math.min(free, SWEEP_BATCH), dueBy);
        this.schedule(due.map((delivery) => delivery.id));
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not look for due webhook deliveries');
    } finally {
      this.sweeping = false;
    }
  }

  private async process(id: string): Promise<void> {
    if (this.stopped || !(await this.deliveries.claim(id, this.leaseMs))) {
      return;
    }
    const delivery = await this.deliveries.find(id);
    const event = delivery && (await this.deliveries.findEvent(delivery.teamId, delivery.eventId));
    if (!delivery || !event) {
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
    await this.deliveries.record(delivery.teamId, delivery.id, outcome);
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
        status: outcome.status,
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
