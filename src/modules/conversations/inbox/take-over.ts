import { Injectable } from '@nestjs/common';
import { AgentsService } from '@/modules/agents/agents.service';
import { ConversationEvents } from '../conversation-events';
import { ConversationEntity } from '../entities/conversation.entity';
import { ConversationInbox } from './conversation-inbox';
import { InboxRepository } from './inbox.repository';

/**
 * What a message changes in the inbox beyond itself. A customer writing reopens a resolved or
 * snoozed conversation, and, while the AI is paused (a person took over), raises it for attention,
 * announced once per paused stretch. An operator writing takes over: the AI pauses unless the
 * agent's `operator_reply_pauses_ai` is off. Each runs in the message's transaction.
 */
@Injectable()
export class TakeOver {
  constructor(
    private readonly agents: AgentsService,
    private readonly inbox: ConversationInbox,
    private readonly rows: InboxRepository,
    private readonly events: ConversationEvents,
  ) {}

  async customerWrote(conversation: ConversationEntity): Promise<ConversationEntity> {
    const reopened = await this.inbox.reopenOnCustomerMessage(conversation);
    if (!reopened.isAiChatPaused) {
      return reopened;
    }
    const first = await this.rows.raisePausedAttention(reopened.teamId, reopened.id);
    const raised: ConversationEntity = { ...reopened, needsAttention: true, pauseAnnounced: true };
    if (first) {
      await this.events.needsAttention(raised);
    }
    return raised;
  }

  async operatorWrote(conversation: ConversationEntity): Promise<ConversationEntity> {
    if (conversation.isAiChatPaused) {
      return conversation;
    }
    const agent = await this.agents.requireOwned(conversation.teamId, conversation.agentId);
    if (!agent.operatorReplyPausesAi) {
      return conversation;
    }
    await this.rows.update(conversation, { isAiChatPaused: true });
    return { ...conversation, isAiChatPaused: true };
  }
}
