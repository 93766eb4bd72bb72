import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { AppConfig } from '@/config/app-config';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { UsageService } from '@/modules/usage/usage.service';
import type { ConversationUsageDto } from '@/modules/usage/dto/usage.dto';
import type { ContactEntity } from './contacts/contact.entity';
import { ContactsService } from './contacts/contacts.service';
import { appendedOrGone, ConversationWrites } from './conversation-writes';
import {
  ChannelUser,
  ConversationChanges,
  ConversationKey,
  ConversationsRepository,
} from './conversations.repository';
import { ConversationListQueryDto } from './dto/conversation.dto';
import { ChannelMessageCreateDto, MessageCreateDto, MessageListQueryDto } from './dto/message.dto';
import { ConversationEntity } from './entities/conversation.entity';
import { MessageAction, MessageEntity } from './entities/message.entity';
import { NoteCreateDto } from './dto/message-author.dto';
import { actionLine, MessageDraft, privateNote } from './messages/message-draft';
import { ChannelContent, channelDraft } from './messages/channel-content';
import { MessagePosting } from './messages/message-posting';
import { MessagePublisher } from './messages/message-publisher';
import { MessagesRepository } from './messages/messages.repository';
import { ReplyRequests } from './reply-requests.service';

const NOT_FOUND = 'Conversation not found';

export interface ConversationDetail {
  conversation: ConversationEntity;
  contact: ContactEntity | null;
  usage: ConversationUsageDto;
}

@Injectable()
export class ConversationsService {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsRepository,
    private readonly writes: ConversationWrites,
    private readonly messages: MessagesRepository,
    private readonly publisher: MessagePublisher,
    private readonly replyRequests: ReplyRequests,
    private readonly contacts: ContactsService,
    private readonly posting: MessagePosting,
    private readonly config: AppConfig,
    private readonly usage: UsageService,
  ) {}

  async list(
    teamId: string,
    agentId: string,
    query: ConversationListQueryDto,
  ): Promise<Page<ConversationEntity>> {
    await this.agents.requireOwned(teamId, agentId);
    return this.conversations.list({ teamId, agentIds: [agentId] }, query);
  }

  /** The agent's conversation, or 404 (also for another team's, or an unknown agent). */
  async get(teamId: string, agentId: string, id: string): Promise<ConversationEntity> {
    await this.agents.requireOwned(teamId, agentId);
    const conversation = await this.conversations.findOwned(teamId, agentId, id);
    if (!conversation) {
      throw Errors.notFound(NOT_FOUND);
    }
    return conversation;
  }

  /** The agent's conversation, its contact and its model usage, or 404 as `get`. */
  async getDetail(teamId: string, agentId: string, id: string): Promise<ConversationDetail> {
    return this.detailOf(await this.get(teamId, agentId, id));
  }

  /** What a conversation's detail shows besides the conversation itself. */
  async detailOf(conversation: ConversationEntity): Promise<ConversationDetail> {
    const { teamId, contactId, id } = conversation;
    return {
      conversation,
      contact: await this.contacts.find(teamId, contactId),
      usage: await this.usage.conversationUsage(teamId, id),
    };
  }

  async setAiPaused(
    teamId: string,
    agentId: string,
    id: string,
    paused: boolean,
  ): Promise<ConversationEntity> {
    const conversation = await this.get(teamId, agentId, id);
    // Resuming ends the paused stretch: the next one is announced again.
    await this.conversations.update(teamId, id, {
      isAiChatPaused: paused,
      ...(paused ? {} : { pauseAnnounced: false }),
      updatedAt: new Date(),
    });
    return { ...conversation, isAiChatPaused: paused };
  }

  async listMessages(
    teamId: string,
    agentId: string,
    id: string,
    query: MessageListQueryDto,
  ): Promise<Page<MessageEntity>> {
    await this.get(teamId, agentId, id);
    return this.messages.list(teamId, id, query);
  }

  async getMessage(
    teamId: string,
    agentId: string,
    id: string,
    messageId: string,
  ): Promise<MessageEntity> {
    await this.get(teamId, agentId, id);
    const message = await this.messages.findOwned(teamId, id, messageId);
    if (!message) {
      throw Errors.notFound('Message not found');
    }
    return message;
  }

  postToConversation(
    teamId: string,
    agentId: string,
    id: string,
    input: MessageCreateDto,
  ): Promise<MessageEntity> {
    return this.posting.post(teamId, agentId, input, { conversationId: id });
  }

  /** Appends by `conversation_id`, or to the channel user's conversation, created if new. */
  async postByChannel(
    teamId: string,
    agentId: string,
    input: ChannelMessageCreateDto,
  ): Promise<MessageEntity> {
    if (input.conversation_id) {
      return this.posting.post(teamId, agentId, input, { conversationId: input.conversation_id });
    }
    if (!input.channel_type || !input.channel_user_id) {
      throw Errors.validation([
        'conversation_id: is required unless channel_type and channel_user_id identify the conversation',
      ]);
    }
    // Checked first: the conversation is created when new, and must be one of the team's agent.
    await this.agents.requireOwned(teamId, agentId);
    return this.posting.post(teamId, agentId, input, {
      channelUser: {
        channelType: input.channel_type,
        channelUserId: input.channel_user_id,
        isTestChannel: input.is_test_channel ?? false,
        username: input.channel_username ?? null,
      },
    });
  }

  /**
   * A customer's message arriving through one of the agent's channels (the web chat: its text; a
   * provider's webhook: text or media, docs/api.md §4d): appended to their conversation, created
   * if new, and answered as any message is (media by its caption), or with the service's own
   * `notice` instead when given (a test code's confirmation). The caller has found the channel,
   * and so the agent, to be the team's.
   */
  postFromChannelUser(
    teamId: string,
    agentId: string,
    channelUser: ChannelUser,
    content: string | ChannelContent,
    notice?: string,
  ): Promise<MessageEntity> {
    const consoleUrl = `${this.config.publicSurface.url}/api/v1/console`;
    const draft = channelDraft(
      consoleUrl,
      typeof content === 'string' ? { kind: 'text', text: content, media: null } : content,
    );
    return this.posting.post(
      teamId,
      agentId,
      { message: draft.text, role: 'user' },
      { channelUser },
      draft,
      notice,
    );
  }

  /**
   * Whether the channel user's conversation with the agent knows their name already (a provider
   * that sends none is asked for it only while it does not).
   */
  async channelUserNamed(
    teamId: string,
    agentId: string,
    user: Pick<ChannelUser, 'channelType' | 'channelUserId' | 'isTestChannel'>,
  ): Promise<boolean> {
    const conversation = await this.conversations.findForChannelUser(teamId, agentId, user);
    return Boolean(conversation?.channelUserUsername);
  }

  /** A piece of the reply to `replyTo` being written, for the streams watching (never stored). */
  publishReplyDelta(conversationId: string, replyTo: string, index: number, delta: string): void {
    this.publisher.publishDelta(conversationId, replyTo, index, delta);
  }

  /** The conversation a reply is produced for, or null once it is gone; the agent is not read. */
  findForReply(teamId: string, agentId: string, id: string): Promise<ConversationEntity | null> {
    return this.conversations.findOwned(teamId, agentId, id);
  }

  /** Whether the AI is paused in the conversation now (a person took over meanwhile). */
  async isAiPaused({ teamId, agentId, id }: ConversationKey): Promise<boolean> {
    return (await this.conversations.findOwned(teamId, agentId, id))?.isAiChatPaused ?? false;
  }

  findMessage(teamId: string, conversationId: string, id: string): Promise<MessageEntity | null> {
    return this.messages.findOwned(teamId, conversationId, id);
  }

  /** The conversation's last `count` messages the customer saw (no private notes), oldest first. */
  recentMessages(teamId: string, conversationId: string, count: number): Promise<MessageEntity[]> {
    return this.messages.recent(teamId, conversationId, count);
  }

  /**
   * Appends an assistant message (a reply, an action's line) with `changes` to the conversation,
   * in the caller's transaction; throws when the conversation went meanwhile. Publish it once the
   * transaction has committed.
   */
  async appendAssistant(
    conversation: ConversationKey,
    draft: MessageDraft,
    changes: ConversationChanges = {},
  ): Promise<MessageEntity> {
    return appendedOrGone(await this.writes.append(conversation, draft, changes)).message;
  }

  /** Tells the conversation's streams of a message that has committed. */
  publish(message: MessageEntity): void {
    this.publisher.publish(message);
  }

  /**
   * An action's outcome (`text`, `action`) in its conversation, clearing `needs_attention`, and
   * asking for the reply that waited on it. In the caller's transaction; null when the
   * conversation is gone.
   */
  async appendActionOutcome(
    teamId: string,
    agentId: string,
    conversationId: string,
    text: string,
    action: MessageAction,
  ): Promise<MessageEntity | null> {
    const conversation = await this.conversations.findOwned(teamId, agentId, conversationId);
    if (!conversation) {
      return null;
    }
    const { message } = appendedOrGone(
      await this.writes.append(conversation, actionLine(text, action), { needsAttention: false }),
    );
    this.publisher.publish(message);
    await this.replyRequests.requested(message);
    return message;
  }

  /**
   * A private note on the conversation: listed and streamed to staff, but announced to no webhook
   * and never answered.
   */
  async addNote(
    teamId: string,
    agentId: string,
    id: string,
    input: NoteCreateDto,
  ): Promise<MessageEntity> {
    await this.get(teamId, agentId, id);
    return this.db.transaction(async () => {
      const appended = await this.writes.append(
        { teamId, agentId, id },
        privateNote(input.text, input.author),
      );
      const { message } = appendedOrGone(appended);
      this.publisher.publish(message);
      return message;
    });
  }
}
