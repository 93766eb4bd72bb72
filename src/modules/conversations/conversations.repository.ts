import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { newId } from '@/common/ids';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { ConversationEvents } from './conversation-events';
import { ConversationListQueryDto } from './dto/conversation.dto';
import { ConversationChannel, ConversationEntity } from './entities/conversation.entity';
import { MessageAction, MessageEntity, MessageRole } from './entities/message.entity';

const PREVIEW_LENGTH = 160;

export interface ChannelUser {
  channelType: ConversationChannel;
  channelUserId: string;
  isTestChannel: boolean;
  username: string | null;
}

@Injectable()
export class ConversationsRepository {
  constructor(
    private readonly db: Database,
    private readonly events: ConversationEvents,
  ) {}

  findOwned(teamId: string, agentId: string, id: string): Promise<ConversationEntity | null> {
    return this.db.manager.findOneBy(ConversationEntity, { teamId, agentId, id });
  }

  list(
    teamId: string,
    agentId: string,
    query: ConversationListQueryDto,
  ): Promise<Page<ConversationEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(ConversationEntity, 'conversation')
      .where('conversation.team_id = :teamId AND conversation.agent_id = :agentId', {
        teamId,
        agentId,
      });
    if (query.channel) {
      const isTest = query.channel.startsWith('test_');
      builder.andWhere(
        'conversation.channel_type = :channelType AND conversation.is_test_channel = :isTest',
        {
          channelType: query.channel.replace(/^test_/, ''),
          isTest,
        },
      );
    }
    const flags = {
      is_test_channel: query.is_test_channel,
      is_ai_chat_paused: query.is_ai_chat_paused,
      needs_attention: query.needs_attention,
    };
    for (const [column, value] of Object.entries(flags)) {
      if (value !== undefined) {
        builder.andWhere(`conversation.${column} = :${column}`, { [column]: value });
      }
    }
    return paginate(builder, query, {
      searchColumns: [
        'conversation.channel_user_id',
        'conversation.channel_user_username',
        'conversation.last_message_preview',
      ],
      sortColumns: {
        created_at: 'conversation.created_at',
        updated_at: 'conversation.updated_at',
        last_message_at: 'conversation.last_message_at',
      },
      defaultSort: '-last_message_at',
      tieBreaker: 'conversation.id',
    });
  }

  /** The channel user's conversation, created if new; safe under concurrent first messages. */
  ensure(teamId: string, agentId: string, user: ChannelUser): Promise<ConversationEntity> {
    return this.db.transaction(() => this.insertOrFind(teamId, agentId, user));
  }

  private async insertOrFind(
    teamId: string,
    agentId: string,
    user: ChannelUser,
  ): Promise<ConversationEntity> {
    const now = new Date();
    const id = newId();
    await this.db.manager
      .createQueryBuilder()
      .insert()
      .into(ConversationEntity)
      .values({
        id,
        teamId,
        agentId,
        channelType: user.channelType,
        channelId: null,
        channelUserId: user.channelUserId,
        channelUserUsername: user.username,
        isTestChannel: user.isTestChannel,
        isAiChatPaused: false,
        needsAttention: false,
        lastMessageAt: null,
        lastSeen: null,
        lastMessagePreview: null,
        fullName: null,
        email: null,
        phoneNumber: null,
        profilePicture: null,
        lastSeq: 0,
        flowState: null,
        context: null,
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
    const conversation = await this.db.manager.findOneByOrFail(ConversationEntity, {
      teamId,
      agentId,
      channelType: user.channelType,
      channelUserId: user.channelUserId,
      isTestChannel: user.isTestChannel,
    });
    if (conversation.id === id) {
      await this.events.conversationCreated(conversation);
    }
    if (user.username && user.username !== conversation.channelUserUsername) {
      await this.db.manager.update(
        ConversationEntity,
        { teamId, id: conversation.id },
        { channelUserUsername: user.username },
      );
    }
    return conversation;
  }

  /**
   * Adds a message at the end of the conversation. The counter update locks the conversation
   * row, so sequence numbers follow commit order; the timestamp never goes back either.
   */
  append(
    conversation: ConversationEntity,
    role: MessageRole,
    text: string,
    changes: QueryDeepPartialEntity<ConversationEntity> = {},
    action: MessageAction | null = null,
  ): Promise<MessageEntity> {
    return this.db.transaction(() => this.insertMessage(conversation, role, text, changes, action));
  }

  private async insertMessage(
    conversation: ConversationEntity,
    role: MessageRole,
    text: string,
    changes: QueryDeepPartialEntity<ConversationEntity>,
    action: MessageAction | null,
  ): Promise<MessageEntity> {
    const { teamId, id } = conversation;
    const now = new Date();
    const handedOff = changes.needsAttention === true && (await this.raiseAttention(teamId, id));
    await this.db.manager
      .createQueryBuilder()
      .update(ConversationEntity)
      .set({
        ...changes,
        lastSeq: () => 'last_seq + 1',
        lastMessageAt: () => 'CASE WHEN last_message_at > :now THEN last_message_at ELSE :now END',
        lastMessagePreview: text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_LENGTH),
        updatedAt: now,
        ...(role === 'user' ? { lastSeen: now } : {}),
      })
      .where('team_id = :teamId AND id = :id', { teamId, id })
      .setParameter('now', now)
      .execute();
    const updated = await this.db.manager.findOneByOrFail(ConversationEntity, { teamId, id });
    const message: MessageEntity = {
      id: newId(),
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      seq: updated.lastSeq,
      role,
      message: text,
      messageType: action ? 'action' : 'text',
      attachments: [],
      action,
      createdAt: updated.lastMessageAt!,
    };
    await this.db.manager.insert(MessageEntity, message as QueryDeepPartialEntity<MessageEntity>);
    await this.events.messageCreated(message);
    if (handedOff) {
      await this.events.needsAttention(updated);
    }
    return message;
  }

  /**
   * Sets `needs_attention`; true when it was not set before. The conditional update decides under
   * the row's lock, so of two concurrent hand-offs only one is the moment it became set.
   */
  private async raiseAttention(teamId: string, id: string): Promise<boolean> {
    const result = await this.db.manager
      .createQueryBuilder()
      .update(ConversationEntity)
      .set({ needsAttention: true })
      .where('team_id = :teamId AND id = :id AND needs_attention = :off', {
        teamId,
        id,
        off: false,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async update(
    teamId: string,
    id: string,
    changes: QueryDeepPartialEntity<ConversationEntity>,
  ): Promise<void> {
    if (changes.needsAttention !== true) {
      await this.db.write(() =>
        this.db.manager.update(ConversationEntity, { teamId, id }, changes),
      );
      return;
    }
    // A hand-off set without a message (an approval waiting) is announced like any other.
    await this.db.transaction(async () => {
      const handedOff = await this.raiseAttention(teamId, id);
      await this.db.manager.update(ConversationEntity, { teamId, id }, changes);
      if (handedOff) {
        await this.events.needsAttention(
          await this.db.manager.findOneByOrFail(ConversationEntity, { teamId, id }),
        );
      }
    });
  }
}
