import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { ConversationEvents } from '../conversation-events';
import { ConversationUpdateDto } from '../dto/conversation-update.dto';
import { ConversationEntity } from '../entities/conversation.entity';
import { inboxChanges } from './inbox-changes';
import { InboxRepository } from './inbox.repository';

/**
 * Where a conversation stands in the team's inbox: its status, assignee, labels and priority.
 * Each change is announced in the transaction that makes it.
 */
@Injectable()
export class ConversationInbox {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly inbox: InboxRepository,
    private readonly events: ConversationEvents,
  ) {}

  async update(
    teamId: string,
    agentId: string,
    id: string,
    input: ConversationUpdateDto,
  ): Promise<ConversationEntity> {
    await this.agents.requireOwned(teamId, agentId);
    return this.db.transaction(async () => {
      const current = await this.inbox.findForUpdate(teamId, agentId, id);
      if (!current) {
        throw Errors.notFound('Conversation not found');
      }
      const now = new Date();
      const changes = inboxChanges(current, input, now);
      if (Object.keys(changes).length === 0) {
        return current;
      }
      await this.inbox.update(current, { ...changes, updatedAt: now });
      const updated: ConversationEntity = { ...current, ...changes, updatedAt: now };
      if (changes.status !== undefined) {
        await this.events.statusChanged(updated);
      }
      if (changes.assigneeId !== undefined) {
        await this.events.assigned(updated);
      }
      return updated;
    });
  }

  /**
   * A customer wrote in `conversation` (as the message left it): a resolved or snoozed one opens
   * again, announced. In the caller's transaction, which holds the conversation's row.
   */
  async reopenOnCustomerMessage(conversation: ConversationEntity): Promise<ConversationEntity> {
    if (conversation.status !== 'resolved' && conversation.status !== 'snoozed') {
      return conversation;
    }
    const now = new Date();
    if (!(await this.inbox.reopen(conversation.teamId, conversation.id, now))) {
      return conversation;
    }
    const reopened: ConversationEntity = {
      ...conversation,
      status: 'open',
      snoozedUntil: null,
      updatedAt: now,
    };
    await this.events.statusChanged(reopened);
    return reopened;
  }
}
