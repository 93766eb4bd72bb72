import { Injectable } from '@nestjs/common';
import { EntityNotFoundError } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { newId } from '@/common/ids';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { SqlParam } from '@/database/sql/params';
import type { AgentStatus } from '@/modules/agents/entities/agent.entity';
import { ConversationEvents } from './conversation-events';
import { ConversationListQueryDto } from './dto/conversation.dto';
import { ConversationChannel, ConversationEntity } from './entities/conversation.entity';
import { MessageAction, MessageEntity, MessageRole } from './entities/message.entity';

const PREVIEW_LENGTH = 160;

/** What identifies a conversation: its team, its agent and its id. */
export type ConversationKey = Pick<ConversationEntity, 'teamId' | 'agentId' | 'id'>;

/** What a message may change on its conversation besides its counters. */
export type ConversationChanges = Partial<
  Pick<ConversationEntity, 'needsAttention' | 'flowState' | 'context'>
>;

interface Bumped {
  conversation: ConversationEntity;
  agentStatus: AgentStatus;
}

/** A stored message, its conversation as the message left it, and the agent's status then. */
export interface Appended extends Bumped {
  message: MessageEntity;
}

const CHANGE_COLUMNS: Record<keyof ConversationChanges, string> = {
  needsAttention: 'needs_attention',
  flowState: 'flow_state',
  context: 'context',
};

function changeColumns(changes: ConversationChanges): Record<string, SqlParam> {
  const columns: Record<string, SqlParam> = {};
  for (const [property, column] of Object.entries(CHANGE_COLUMNS)) {
    const value = changes[property as keyof ConversationChanges];
    if (value !== undefined) {
      columns[column] = value;
    }
  }
  return columns;
}

/** `appended`, or the error of a conversation deleted meanwhile (see `isRecordGoneMeanwhile`). */
export function appendedOrGone(appended: Appended | null): Appended {
  if (!appended) {
    throw new EntityNotFoundError(ConversationEntity, 'the conversation a message was added to');
  }
  return appended;
}

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
    return this.db.entity(
      ConversationEntity,
      'SELECT * FROM conversations WHERE team_id = $1 AND agent_id = $2 AND id = $3',
      [teamId, agentId, id],
    );
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

  /**
   * Adds a message at the end of the conversation; null when it is not the agent's. The counter
   * update locks the conversation row, so sequence numbers follow commit order; the timestamp
   * never goes back either.
   */
  append(
    conversation: ConversationKey,
    role: MessageRole,
    text: string,
    changes: ConversationChanges = {},
    action: MessageAction | null = null,
  ): Promise<Appended | null> {
    const { teamId, agentId, id } = conversation;
    return this.db.transaction(async () => {
      const handedOff = changes.needsAttention === true && (await this.raiseAttention(teamId, id));
      const bumped = await this.bump(
        'id = $3',
        [teamId, agentId, id],
        role,
        text,
        changeColumns(changes),
      );
      const appended = bumped && (await this.insertMessage(bumped, role, text, action));
      if (appended && handedOff) {
        await this.events.needsAttention(appended.conversation);
      }
      return appended;
    });
  }

  /**
   * Adds a channel user's message (or an answer to them) to their conversation, created if new
   * and safe under concurrent first messages. The caller has made sure the agent is the team's:
   * the conversation is created for it. Null only when the conversation went meanwhile.
   */
  appendForChannelUser(
    teamId: string,
    agentId: string,
    user: ChannelUser,
    role: MessageRole,
    text: string,
    clearsAttention: boolean,
  ): Promise<Appended | null> {
    return this.db.transaction(async () => {
      await this.createIfNew(teamId, agentId, user);
      const bumped = await this.bump(
        'channel_type = $3 AND channel_user_id = $4 AND is_test_channel = $5',
        [teamId, agentId, user.channelType, user.channelUserId, user.isTestChannel],
        role,
        text,
        {
          ...(clearsAttention ? { needs_attention: false } : {}),
          ...(user.username ? { channel_user_username: user.username } : {}),
        },
      );
      return bumped && this.insertMessage(bumped, role, text, null);
    });
  }

  private async createIfNew(teamId: string, agentId: string, user: ChannelUser): Promise<void> {
    const now = new Date();
    const conversation: ConversationEntity = {
      id: newId(),
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
    };
    if ((await this.db.insert(ConversationEntity, [conversation], { orIgnore: true })) > 0) {
      await this.events.conversationCreated(conversation);
    }
  }

  /**
   * Counts a new message on the conversation `where` picks among the agent's ($1 team, $2 agent),
   * applying `columns`; the conversation as updated, and its agent's status, in one statement.
   */
  private async bump(
    where: string,
    whereParams: SqlParam[],
    role: MessageRole,
    text: string,
    columns: Record<string, SqlParam>,
  ): Promise<Bumped | null> {
    const params: SqlParam[] = [...whereParams];
    const now = `$${params.push(new Date())}`;
    const sets = [
      'last_seq = last_seq + 1',
      `last_message_at = CASE WHEN last_message_at > ${now} THEN last_message_at ELSE ${now} END`,
      `last_message_preview = $${params.push(text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_LENGTH))}`,
      `updated_at = ${now}`,
      ...(role === 'user' ? [`last_seen = ${now}`] : []),
      ...Object.entries(columns).map(([column, value]) => `${column} = $${params.push(value)}`),
    ];
    const { rows } = await this.db.execute(
      `UPDATE conversations SET ${sets.join(', ')}
       WHERE team_id = $1 AND agent_id = $2 AND ${where}
       RETURNING *, (SELECT status FROM agents
         WHERE agents.team_id = conversations.team_id AND agents.id = conversations.agent_id
       ) AS agent_status`,
      params,
    );
    if (rows.length === 0) {
      return null;
    }
    return {
      conversation: this.db.hydrate(ConversationEntity, rows)[0],
      agentStatus: rows[0].agent_status as AgentStatus,
    };
  }

  private async insertMessage(
    { conversation, agentStatus }: Bumped,
    role: MessageRole,
    text: string,
    action: MessageAction | null,
  ): Promise<Appended> {
    const message: MessageEntity = {
      id: newId(),
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      seq: conversation.lastSeq,
      role,
      message: text,
      messageType: action ? 'action' : 'text',
      attachments: [],
      action,
      createdAt: conversation.lastMessageAt!,
    };
    await this.db.insert(MessageEntity, [message]);
    await this.events.messageCreated(message);
    return { message, conversation, agentStatus };
  }

  /**
   * Sets `needs_attention`; true when it was not set before. The conditional update decides under
   * the row's lock, so of two concurrent hand-offs only one is the moment it became set.
   */
  private async raiseAttention(teamId: string, id: string): Promise<boolean> {
    const { changes } = await this.db.execute(
      'UPDATE conversations SET needs_attention = $3 WHERE team_id = $1 AND id = $2 AND needs_attention = $4',
      [teamId, id, true, false],
    );
    return changes > 0;
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
