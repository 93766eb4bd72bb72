import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { nextAttemptAt } from '@/database/jobs/backoff';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { AppConfig } from '@/config/app-config';
import { ProviderChannels } from '@/modules/agents/provider-channels.service';
import { ChannelOutbox } from '@/modules/conversations/channel-outbox.service';
import type { ChannelSendEntity } from '@/modules/conversations/entities/channel-send.entity';
import { ChannelSender } from './channel-sender';

/** Sends in flight at once in one process, and of one team. */
const CONCURRENCY = 16;
const PER_TEAM = 4;
/** Retries (the first within CHANNEL_FIRST_RETRY_S ≤ 30 s, then doubling) go on for a day. */
const RETRY_FOR_MS = 24 * 3600 * 1000;
const LEASE_MARGIN_MS = 5_000;

/**
 * Sends the conversations' outbox (ChannelOutbox) through the providers, as the webhook
 * deliveries are sent: a send is a job, claimed with a lease that counts the attempt, made with
 * no transaction open, and its outcome recorded only while the claim holds, so a SIGKILL mid-send
 * is sent again after the lease and two instances never both record one. Retried with backoff
 * when the provider says it may work later (429, 5xx, timeouts, rate-limit codes), never on
 * another refusal; a channel disconnected meanwhile fails its sends.
 */
@Injectable()
export class ChannelSendWorker extends JobWorker<QueuedJob, ChannelSendEntity> {
  protected readonly logger = new Logger(ChannelSendWorker.name);
  private readonly firstRetryS: number;

  constructor(
    db: Database,
    private readonly outbox: ChannelOutbox,
    private readonly channels: ProviderChannels,
    private readonly sender: ChannelSender,
    config: AppConfig,
  ) {
    super(db, {
      concurrency: CONCURRENCY,
      perTeam: PER_TEAM,
      leaseMs: config.outbound.timeoutMs + LEASE_MARGIN_MS,
      sweepIntervalMs: 1_000,
      sweepGraceMs: 1_000,
    });
    this.firstRetryS = config.meta.firstRetryS;
    outbox.listen((send) => this.schedule({ id: send.id, teamId: send.teamId }));
  }

  protected findDue(limit: number, perTeam: number, dueBy: Date): Promise<ChannelSendEntity[]> {
    return this.outbox.jobs.due(limit, perTeam, dueBy);
  }

  protected claim(job: QueuedJob): Promise<Claim<ChannelSendEntity> | null> {
    return this.outbox.jobs.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: QueuedJob, claim: Claim<ChannelSendEntity>): Promise<boolean> {
    return this.outbox.jobs.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.outbox.jobs.releaseAll();
  }

  protected async perform(_job: QueuedJob, claim: Claim<ChannelSendEntity>): Promise<void> {
    const send = claim.row;
    const message = await this.outbox.messageOf(send);
    if (!message) {
      await this.outbox.jobs.remove(send.id, claim.token);
      return;
    }
    const found = await this.channels.withSecrets(send.teamId, send.channelId);
    if (!found?.channel.isConnected) {
      await this.outbox.recordFailed(claim, 'channel disconnected');
      return;
    }
    const outcome = await this.sender.sendText(
      found.channel,
      found.secrets,
      send.recipient,
      message.message,
    );
    if (outcome.ok) {
      await this.outbox.recordSent(claim, outcome.providerMessageId);
      this.logger.debug({ send_id: send.id, attempt: send.attempts }, 'Channel message sent');
      return;
    }
    const retryAt = outcome.retryable
      ? nextAttemptAt(
          send.attempts,
          new Date(),
          new Date(send.createdAt.getTime() + RETRY_FOR_MS),
          this.firstRetryS,
        )
      : null;
    if (retryAt) {
      await this.outbox.recordRetry(claim, retryAt, outcome.error);
    } else {
      await this.outbox.recordFailed(claim, outcome.error);
    }
    this.logger.log(
      { send_id: send.id, attempt: send.attempts, retry: Boolean(retryAt), error: outcome.error },
      'Channel send failed',
    );
  }
}
