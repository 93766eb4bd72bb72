import { Injectable } from '@nestjs/common';
import { EntityNotFoundError } from 'typeorm';
import { Database } from '@/database/database.service';
import { ChannelOutbox } from './channel-outbox.service';
import { ContactsRepository } from './contacts/contacts.repository';
import { ConversationEvents } from './conversation-events';
import {
  Appended,
  ChannelUser,
  ConversationChanges,
  ConversationKey,
  ConversationsRepository,
} from './conversations.repository';
import { ConversationEntity } from './entities/conversation.entity';
import { ConversationLabels } from './inbox/conversation-labels';
import { MessageDraft } from './messages/message-draft';

/** `appended`, or the error of a conversation deleted meanwhile (see `isRecordGoneMeanwhile`). */
export function appendedOrGone(appended: Appended | null): Appended {
  if (!appended) {
    throw new EntityNotFoundError(ConversationEntity, 'the conversation a message was added to');
  }
  return appended;
}

/**
 * Writes into conversations and announces each write (a new conversation, a message, a hand-off)
 * in its transaction, so that the team's systems hear of exactly what committed.
 */
@Injectable()
export class ConversationWrites {
  constructor(
    private readonly db: Database,
    private readonly conversations: ConversationsRepository,
    private readonly contacts: ContactsRepository,
    private readonly events: ConversationEvents,
    private readonly outbox: ChannelOutbox,
    private readonly labels: ConversationLabels,
  ) {}

  /**
   * Adds a message at the end of the conversation, applying `changes`; null when it is not the
   * agent's. Setting `needsAttention` announces that it needs attention when it was not set
   * before; recording a hand-off (`handoffSource`) announces the hand-off.
   */
  append(
    conversation: ConversationKey,
    draft: MessageDraft,
    changes: ConversationChanges = {},
  ): Promise<Appended | null> {
    return this.db.transaction(async () => {
      const handedOff =
        changes.needsAttention === true &&
        (await this.conversations.raiseAttention(conversation.teamId, conversation.id));
      const bumped = await this.conversations.bump(conversation, draft, changes);
      if (!bumped) {
        return null;
      }
      await this.labels.messageAdded(bumped.conversation);
      const appended = await this.queued(await this.conversations.insertMessage(bumped, draft));
      await this.events.messageCreated(appended.message);
      if (handedOff) {
        await this.events.needsAttention(appended.conversation);
      }
      if (changes.handoffSource) {
        await this.events.handedOff(appended.conversation);
      }
      return appended;
    });
  }

  /**
   * Adds a channel user's message (or an answer to them) to their conversation, created if new
   * (with the channel user's contact, unless another conversation made it already, named after
   * the provider's profile name of the user unless it has a name). The caller
   * has made sure the agent is the team's. Null only when the conversation went meanwhile.
   */
  appendForChannelUser(
    teamId: string,
    agentId: string,
    user: ChannelUser,
    draft: MessageDraft,
    clearsAttention: boolean,
  ): Promise<Appended | null> {
    return this.db.transaction(async () => {
      const created = await this.conversations.createIfNew(teamId, agentId, user);
      if (created) {
        const contact = await this.contacts.ensure(teamId, user.channelType, user.channelUserId);
        if (user.profileName) {
          await this.contacts.fillEmpty(teamId, contact.id, { full_name: user.profileName });
        }
        await this.conversations.update(teamId, created.id, { contactId: contact.id });
        created.contactId = contact.id;
        await this.events.conversationCreated(created);
      }
      const bumped = await this.conversations.bumpForChannelUser(
        teamId,
        agentId,
        user,
        draft,
        clearsAttention,
      );
      if (!bumped) {
        return null;
      }
      await this.labels.messageAdded(bumped.conversation);
      const appended = await this.queued(await this.conversations.insertMessage(bumped, draft));
      await this.events.messageCreated(appended.message);
      return appended;
    });
  }

  /** The message queued for its channel's provider when the channel sends (ChannelOutbox). */
  private async queued(appended: Appended): Promise<Appended> {
    return {
      ...appended,
      message: await this.outbox.queue(appended.conversation, appended.message),
    };
  }

  /**
   * Hands the conversation to a person without a message (an approval waiting), announced like
   * any other hand-off when it was not handed off already.
   */
  raiseAttention(teamId: string, id: string): Promise<void> {
    return this.db.transaction(async () => {
      if (!(await this.conversations.raiseAttention(teamId, id))) {
        return;
      }
      const conversation = await this.conversations.find(teamId, id);
      if (conversation) {
        await this.events.needsAttention(conversation);
      }
    });
  }
}
