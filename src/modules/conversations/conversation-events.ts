import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { AgentsService } from '@/modules/agents/agents.service';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { toConversationResponse } from './dto/conversation.dto';
import { toMessageResponse } from './dto/message.dto';
import { ConversationEntity } from './entities/conversation.entity';
import { MessageEntity } from './entities/message.entity';
import { isPrivate } from './messages/message-draft';
import { MessagesRepository } from './messages/messages.repository';
import { ReportEventsRepository } from './reports/report-events.repository';

const QUOTE_LENGTH = 2_000;

type WebhookEventType = Parameters<WebhookEvents['emit']>[1];

/**
 * What the conversations tell the team's systems: webhook events, the hand-off mail to the
 * agent's escalation address, and the hand-offs and resolutions the reports count. Each is called
 * inside the transaction of its change. `agent_id` is added to the records' API shape: a receiver
 * needs it to find the conversation.
 */
@Injectable()
export class ConversationEvents {
  private readonly dashboardUrl: string;

  constructor(
    private readonly webhooks: WebhookEvents,
    private readonly messages: MessagesRepository,
    private readonly agents: AgentsService,
    private readonly reportEvents: ReportEventsRepository,
    config: AppConfig,
  ) {
    this.dashboardUrl = config.integrations.dashboardUrl;
  }

  conversationCreated(conversation: ConversationEntity): Promise<void> {
    return this.webhooks.emit(conversation.teamId, 'conversation.created', {
      ...toConversationResponse(conversation),
      agent_id: conversation.agentId,
    });
  }

  /** The conversation's status has changed (by PATCH, a reopen, or a snooze that ended). */
  async statusChanged(conversation: ConversationEntity): Promise<void> {
    if (conversation.status === 'resolved') {
      await this.reportEvents.record('resolved', conversation);
    }
    await this.emitConversation('conversation.status_changed', conversation);
  }

  /** The conversation has been assigned to someone else, or unassigned. */
  assigned(conversation: ConversationEntity): Promise<void> {
    return this.emitConversation('conversation.assigned', conversation);
  }

  /** A hand-off has just been recorded (`handoff` carries its reason and source). */
  async handedOff(conversation: ConversationEntity): Promise<void> {
    await this.reportEvents.record('handed_off', conversation);
    await this.emitConversation('conversation.handed_off', conversation);
  }

  private emitConversation(type: WebhookEventType, conversation: ConversationEntity) {
    return this.webhooks.emit(conversation.teamId, type, toConversationResponse(conversation));
  }

  /** Private notes are staff's only: they are never announced. */
  async messageCreated(message: MessageEntity): Promise<void> {
    if (isPrivate(message)) {
      return;
    }
    await this.webhooks.emit(message.teamId, 'message.created', {
      ...toMessageResponse(message),
      agent_id: message.agentId,
    });
  }

  /** A message sent through a channel's provider got further, or failed (its `delivery`). */
  async deliveryUpdated(message: MessageEntity): Promise<void> {
    await this.webhooks.emit(message.teamId, 'message.delivery_updated', {
      ...toMessageResponse(message),
      agent_id: message.agentId,
    });
  }

  /** The conversation has just become `needs_attention` (a hand-off). */
  async needsAttention(conversation: ConversationEntity): Promise<void> {
    const { teamId, agentId, id } = conversation;
    await this.webhooks.emit(teamId, 'conversation.needs_attention', {
      ...toConversationResponse(conversation),
      agent_id: agentId,
    });
    if (!this.webhooks.handoffMailEnabled) {
      return;
    }
    const agent = await this.agents.requireOwned(teamId, agentId);
    if (!agent.escalationEmail) {
      return;
    }
    const customer = conversation.channelUserUsername ?? conversation.channelUserId;
    const last = await this.messages.lastFromUser(teamId, id);
    await this.webhooks.queueHandoffMail(teamId, id, {
      to: agent.escalationEmail,
      subject: `${agent.name}: a conversation needs a person`,
      text: [
        `${customer} (${conversation.channelType}) is waiting for a person to answer.`,
        ...(conversation.handoffReason
          ? [`Why: ${conversation.handoffReason} (${conversation.handoffSource ?? 'hand-off'})`]
          : []),
        '',
        'Their last message:',
        ...(last?.message.slice(0, QUOTE_LENGTH).split('\n') ?? ['(none)']).map((l) => `> ${l}`),
        '',
        `Open the conversation: ${this.dashboardUrl}/agents/${agentId}/conversations/${id}`,
      ].join('\n'),
    });
  }
}
