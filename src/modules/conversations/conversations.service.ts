import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { ActionRunEntity } from '@/modules/agents/action-runs/entities/action-run.entity';
import { AgentsService } from '@/modules/agents/agents.service';
import { ChannelUser, ConversationsRepository } from './conversations.repository';
import { ConversationListQueryDto } from './dto/conversation.dto';
import { ChannelMessageCreateDto, MessageCreateDto, MessageListQueryDto } from './dto/message.dto';
import { ConversationEntity } from './entities/conversation.entity';
import { MessageEntity } from './entities/message.entity';
import { MessagePublisher } from './messages/message-publisher';
import { MessagesRepository } from './messages/messages.repository';
import { messageActionOf, runLine } from './replies/action-lines';
import { PendingRepliesRepository } from './replies/pending-replies.repository';
import { ReplyWorker } from './replies/reply-worker.service';

const NOT_FOUND = 'Conversation not found';

@Injectable()
export class ConversationsService {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesRepository,
    private readonly pendingReplies: PendingRepliesRepository,
    private readonly publisher: MessagePublisher,
    private readonly replies: ReplyWorker,
  ) {}

  async list(
    teamId: string,
    agentId: string,
    query: ConversationListQueryDto,
  ): Promise<Page<ConversationEntity>> {
    await this.agents.requireOwned(teamId, agentId);
    return this.conversations.list(teamId, agentId, query);
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

  async setAiPaused(
    teamId: string,
    agentId: string,
    id: string,
    paused: boolean,
  ): Promise<ConversationEntity> {
    const conversation = await this.get(teamId, agentId, id);
    await this.conversations.update(teamId, id, { isAiChatPaused: paused, updatedAt: new Date() });
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
    return this.post(teamId, agentId, input, { conversationId: id });
  }

  /** Appends by `conversation_id`, or to the channel user's conversation, created if new. */
  postByChannel(
    teamId: string,
    agentId: string,
    input: ChannelMessageCreateDto,
  ): Promise<MessageEntity> {
    if (input.conversation_id) {
      return this.post(teamId, agentId, input, { conversationId: input.conversation_id });
    }
    if (!input.channel_type || !input.channel_user_id) {
      throw Errors.validation([
        'conversation_id: is required unless channel_type and channel_user_id identify the conversation',
      ]);
    }
    return this.post(teamId, agentId, input, {
      channelUser: {
        channelType: input.channel_type,
        channelUserId: input.channel_user_id,
        isTestChannel: input.is_test_channel ?? false,
        username: input.channel_username ?? null,
      },
    });
  }

  /**
   * A person decided on a run that waited for approval: the conversation shows the outcome, and
   * the reply that parked it continues, produced by the reply worker on whichever instance takes
   * it. In the caller's transaction.
   */
  async continueAfterDecision(run: ActionRunEntity): Promise<void> {
    const conversation = await this.conversations.findOwned(
      run.teamId,
      run.agentId,
      run.conversationId,
    );
    if (!conversation) {
      return;
    }
    const message = await this.conversations.append(
      conversation,
      'assistant',
      runLine(run),
      { needsAttention: false },
      messageActionOf(run),
    );
    this.publisher.publish(message);
    const pending = await this.pendingReplies.add(message);
    this.db.afterCommit(() => this.replies.schedule(pending));
  }

  private async post(
    teamId: string,
    agentId: string,
    input: MessageCreateDto,
    target: { conversationId: string } | { channelUser: ChannelUser },
  ): Promise<MessageEntity> {
    const agent = await this.agents.requireOwned(teamId, agentId);
    const role = input.role ?? 'user';
    return this.db.transaction(async () => {
      let conversation: ConversationEntity | null;
      if ('conversationId' in target) {
        conversation = isId(target.conversationId)
          ? await this.conversations.findOwned(teamId, agentId, target.conversationId)
          : null;
        if (!conversation) {
          throw Errors.notFound(NOT_FOUND);
        }
      } else {
        conversation = await this.conversations.ensure(teamId, agentId, target.channelUser);
      }
      // A person answering in the conversation has taken care of whatever needed attention.
      const message = await this.conversations.append(
        conversation,
        role,
        input.message,
        role === 'assistant' ? { needsAttention: false } : {},
      );
      this.publisher.publish(message);
      if (role === 'user' && !conversation.isAiChatPaused && agent.status !== 'paused') {
        const pending = await this.pendingReplies.add(message);
        this.db.afterCommit(() => this.replies.schedule(pending));
      }
      return message;
    });
  }
}
