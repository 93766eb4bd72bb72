import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { ActionRunEntity } from '@/modules/agents/action-runs/entities/action-run.entity';
import { AgentsService } from '@/modules/agents/agents.service';
import { appendedOrGone, ChannelUser, ConversationsRepository } from './conversations.repository';
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
  async postByChannel(
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
    // Checked first: the conversation is created when new, and must be one of the team's agent.
    await this.agents.requireOwned(teamId, agentId);
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
    const { message } = appendedOrGone(
      await this.conversations.append(
        conversation,
        'assistant',
        runLine(run),
        { needsAttention: false },
        messageActionOf(run),
      ),
    );
    this.publisher.publish(message);
    const pending = await this.pendingReplies.add(message);
    this.db.afterCommit(() => this.replies.schedule(pending, message));
  }

  private async post(
    teamId: string,
    agentId: string,
    input: MessageCreateDto,
    target: { conversationId: string } | { channelUser: ChannelUser },
  ): Promise<MessageEntity> {
    const role = input.role ?? 'user';
    // A person answering in the conversation has taken care of whatever needed attention.
    const clearsAttention = role === 'assistant';
    return this.db.transaction(async () => {
      const appended =
        'conversationId' in target
          ? isId(target.conversationId)
            ? await this.conversations.append(
                { teamId, agentId, id: target.conversationId },
                role,
                input.message,
                clearsAttention ? { needsAttention: false } : {},
              )
            : null
          : await this.conversations.appendForChannelUser(
              teamId,
              agentId,
              target.channelUser,
              role,
              input.message,
              clearsAttention,
            );
      if (!appended) {
        // Nothing was written: an unknown agent reads as such, else the conversation is unknown.
        await this.agents.requireOwned(teamId, agentId);
        throw Errors.notFound(NOT_FOUND);
      }
      const { message, conversation, agentStatus } = appended;
      this.publisher.publish(message);
      if (role === 'user' && !conversation.isAiChatPaused && agentStatus !== 'paused') {
        const pending = await this.pendingReplies.add(message);
        this.db.afterCommit(() => this.replies.schedule(pending, message));
      }
      return message;
    });
  }
}
