import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { ProviderChannels } from '@/modules/agents/provider-channels.service';
import type { AgentChannelEntity } from '@/modules/agents/entities/agent-channel.entity';
import { ChannelOutbox } from '@/modules/conversations/channel-outbox.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { ChannelInboundEntity } from '../entities/channel-inbound.entity';
import {
  InboundMessage,
  parseMessengerNotification,
  parseWhatsAppNotification,
  ParsedNotification,
} from '../meta/webhook-payloads';
import { ChannelInboundRepository } from './channel-inbound.repository';
import { contentOf } from './inbound-content';
import { SenderProfiles } from './sender-profiles';

const CONCURRENCY = 8;
const PER_TEAM = 2;
const LEASE_MS = 30_000;
/** A notification that fails this often (the database away each time) is given up, logged. */
const MAX_ATTEMPTS = 10;

function parse(type: AgentChannelEntity['type'], body: unknown): ParsedNotification {
  return type === 'whatsapp'
    ? parseWhatsAppNotification(body)
    : parseMessengerNotification(body, type === 'instagram' ? 'instagram' : 'messenger');
}

/**
 * Processes the channels' acknowledged notifications (ChannelWebhookController): each customer
 * message is appended to the sender's conversation and answered as any message is, once per
 * provider message id however often the provider redelivers it (the id is recorded in the
 * message's transaction); each status callback moves its message's delivery. A notification is
 * a job on the leased base: a crash mid-way runs it again, and what it already took in is skipped.
 */
@Injectable()
export class ChannelInboundWorker extends JobWorker<QueuedJob, ChannelInboundEntity> {
  protected readonly logger = new Logger(ChannelInboundWorker.name);

  constructor(
    db: Database,
    private readonly inbound: ChannelInboundRepository,
    private readonly channels: ProviderChannels,
    private readonly conversations: ConversationsService,
    private readonly outbox: ChannelOutbox,
    private readonly profiles: SenderProfiles,
  ) {
    super(db, {
      concurrency: CONCURRENCY,
      perTeam: PER_TEAM,
      leaseMs: LEASE_MS,
      sweepIntervalMs: 1_000,
      sweepGraceMs: 1_000,
    });
  }

  protected findDue(limit: number, perTeam: number, dueBy: Date): Promise<ChannelInboundEntity[]> {
    return this.inbound.jobs.due(limit, perTeam, dueBy);
  }

  protected claim(job: QueuedJob): Promise<Claim<ChannelInboundEntity> | null> {
    return this.inbound.jobs.claim(job.id, LEASE_MS);
  }

  protected renew(job: QueuedJob, claim: Claim<ChannelInboundEntity>): Promise<boolean> {
    return this.inbound.jobs.renew(job.id, claim.token, LEASE_MS);
  }

  protected releaseAll(): Promise<void> {
    return this.inbound.jobs.releaseAll();
  }

  protected async perform(_job: QueuedJob, { row, token }: Claim<ChannelInboundEntity>) {
    const found = await this.channels.metaChannel(row.channelId);
    if (!found || row.attempts > MAX_ATTEMPTS) {
      if (found) {
        this.logger.error({ inbound_id: row.id }, 'Channel notification given up');
      }
      await this.inbound.jobs.remove(row.id, token);
      return;
    }
    const { channel, secrets } = found;
    const parsed = parse(channel.type, JSON.parse(row.body));
    const names = new Map<string, Promise<string | null>>();
    for (const message of parsed.messages) {
      if (!names.has(message.from)) {
        names.set(message.from, this.profileName(channel, secrets, message));
      }
      await this.takeIn(channel, { ...message, profileName: await names.get(message.from)! });
    }
    for (const status of parsed.statuses) {
      await this.outbox.providerStatus(
        channel.id,
        status.providerMessageId,
        status.status,
        status.error,
      );
    }
    await this.inbound.jobs.remove(row.id, token);
  }

  /**
   * The sender's name: WhatsApp's own, else (Messenger, Instagram) asked of the Graph API while
   * their conversation has none, outside any transaction; null when the lookup fails.
   */
  private async profileName(
    channel: AgentChannelEntity,
    secrets: Record<string, string>,
    message: InboundMessage,
  ): Promise<string | null> {
    if (
      message.profileName !== null ||
      (channel.type !== 'messenger' && channel.type !== 'instagram')
    ) {
      return message.profileName;
    }
    const named = await this.conversations.channelUserNamed(channel.teamId, channel.agentId, {
      channelType: channel.type,
      channelUserId: message.from,
      isTestChannel: false,
    });
    return named ? null : this.profiles.nameOf(channel.type, message.from, secrets.access_token);
  }

  private takeIn(channel: AgentChannelEntity, message: InboundMessage): Promise<void> {
    return this.db.transaction(async () => {
      if (!(await this.inbound.firstTime(channel.id, message.providerMessageId))) {
        return;
      }
      await this.conversations.postFromChannelUser(
        channel.teamId,
        channel.agentId,
        {
          channelType: channel.type,
          channelUserId: message.from,
          isTestChannel: false,
          username: message.profileName,
          profileName: message.profileName,
          channelId: channel.id,
        },
        contentOf(message),
      );
    });
  }
}
