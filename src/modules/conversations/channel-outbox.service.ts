import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { Claim } from '@/database/jobs/job-table';
import { ProviderChannels } from '@/modules/agents/provider-channels.service';
import { ConversationEvents } from './conversation-events';
import { ConversationEntity } from './entities/conversation.entity';
import { DeliveryStatus, MessageEntity } from './entities/message.entity';
import { isPrivate } from './messages/message-draft';
import { ChannelSendEntity } from './entities/channel-send.entity';
import { ChannelSendsRepository } from './outbound/channel-sends.repository';

/** Told, once the transaction that queued it has committed, of a send to make. */
export type ChannelSendListener = (send: ChannelSendEntity) => void;

/** How far a delivery can get: a provider's status never takes it back. */
const PROGRESS: Record<DeliveryStatus, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
};

/**
 * The conversations' outbox towards the channels' providers (docs/api.md §4d). Every
 * customer-visible message written on a conversation whose channel sends through a provider is
 * queued in the transaction that writes it (never a note, never the customer's own); the channels
 * module above sends it, through this service, and its `delivery` follows: queued, sent,
 * delivered, read, or failed with the provider's reason, each change announced
 * (`message.delivery_updated`) in its transaction.
 */
@Injectable()
export class ChannelOutbox {
  private readonly listeners: ChannelSendListener[] = [];

  constructor(
    private readonly db: Database,
    private readonly channels: ProviderChannels,
    private readonly sends: ChannelSendsRepository,
    private readonly events: ConversationEvents,
  ) {}

  get jobs() {
    return this.sends.jobs;
  }

  listen(listener: ChannelSendListener): void {
    this.listeners.push(listener);
  }

  /** In the caller's transaction: queues `message` when its conversation's channel sends. */
  async queue(conversation: ConversationEntity, message: MessageEntity): Promise<MessageEntity> {
    if (message.role !== 'assistant' || isPrivate(message)) {
      return message;
    }
    const channel = await this.channels.sendingChannel(conversation);
    if (!channel) {
      return message;
    }
    const now = new Date();
    const send: ChannelSendEntity = {
      id: newId(),
      teamId: message.teamId,
      agentId: message.agentId,
      conversationId: message.conversationId,
      messageId: message.id,
      channelId: channel.id,
      channelType: channel.type,
      recipient: conversation.channelUserId,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      leaseToken: null,
      providerMessageId: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.sends.insert(send);
    // `message.created` carries the queued delivery: only later changes are announced.
    const queued = await this.setDelivery(message, 'queued', null, now, false);
    this.db.afterCommit(() => this.listeners.forEach((listener) => listener(send)));
    return queued;
  }

  /** The message a send carries, or null once it is gone. */
  messageOf(send: ChannelSendEntity): Promise<MessageEntity | null> {
    return this.db.findOne(MessageEntity, { teamId: send.teamId, id: send.messageId });
  }

  /** The provider took it: `sent`, with its id for later status callbacks. */
  recordSent(claim: Claim<ChannelSendEntity>, providerMessageId: string | null): Promise<boolean> {
    return this.record(
      claim,
      { status: 'sent', provider_message_id: providerMessageId },
      'sent',
      null,
    );
  }

  /** Another try at `nextAttemptAt`; the delivery stays queued. */
  async recordRetry(claim: Claim<ChannelSendEntity>, nextAttemptAt: Date, error: string) {
    return this.jobs.settle(claim.row.id, claim.token, {
      status: 'pending',
      next_attempt_at: nextAttemptAt,
      last_error: error,
      updated_at: new Date(),
    });
  }

  /** Failed for good, with the reason the customer's message did not go. */
  recordFailed(claim: Claim<ChannelSendEntity>, error: string): Promise<boolean> {
    return this.record(claim, { status: 'failed', last_error: error }, 'failed', error);
  }

  /**
   * A provider's status callback for one of its message ids on the channel: the delivery moves
   * forward (never back), announced.
   */
  async providerStatus(
    channelId: string,
    providerMessageId: string,
    status: DeliveryStatus,
    error: string | null,
  ): Promise<void> {
    await this.db.transaction(async () => {
      const send = await this.sends.findByProviderId(channelId, providerMessageId);
      const message = send && (await this.messageOf(send));
      const current = message?.deliveryStatus;
      if (!message || !current || current === 'failed') {
        return;
      }
      if (status === 'failed' || PROGRESS[status] > PROGRESS[current]) {
        await this.setDelivery(message, status, error, new Date());
      }
    });
  }

  private async record(
    { row, token }: Claim<ChannelSendEntity>,
    changes: Record<string, string | null>,
    delivery: DeliveryStatus,
    error: string | null,
  ): Promise<boolean> {
    return this.db.transaction(async () => {
      const now = new Date();
      if (!(await this.jobs.settle(row.id, token, { ...changes, updated_at: now }))) {
        return false;
      }
      const message = await this.messageOf(row);
      // A status callback may have overtaken the send's own answer: it is kept.
      if (message && (message.deliveryStatus === 'queued' || delivery === 'failed')) {
        await this.setDelivery(message, delivery, error, now);
      }
      return true;
    });
  }

  private async setDelivery(
    message: MessageEntity,
    status: DeliveryStatus,
    error: string | null,
    at: Date,
    announce = true,
  ): Promise<MessageEntity> {
    await this.db.update(
      MessageEntity,
      { teamId: message.teamId, id: message.id },
      { deliveryStatus: status, deliveryError: error, deliveryUpdatedAt: at },
    );
    const updated: MessageEntity = {
      ...message,
      deliveryStatus: status,
      deliveryError: error,
      deliveryUpdatedAt: at,
    };
    if (announce) {
      await this.events.deliveryUpdated(updated);
    }
    return updated;
  }
}
