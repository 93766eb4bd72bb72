import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages } from '@/database/sql/list-pages';
import { SqlParam } from '@/database/sql/params';
import type { AgentStatus } from '@/modules/agents/entities/agent.entity';
import { CONVERSATION_LIST, ConversationScope, countsRead, listRead } from './conversation-list';
import { ConversationCountsDto, ConversationFiltersDto } from './dto/conversation-filters.dto';
import { ConversationListQueryDto } from './dto/conversation.dto';
import { ConversationChannel, ConversationEntity } from './entities/conversation.entity';
import { MessageEntity } from './entities/message.entity';
import { isPrivate, MessageDraft } from './messages/message-draft';
import { inboxDefaults } from './inbox/inbox-defaults';

const PREVIEW_LENGTH = 160;

/** What identifies a conversation: its team, its agent and its id. */
export type ConversationKey = Pick<ConversationEntity, 'teamId' | 'agentId' | 'id'>;

/** What a message may change on its conversation besides its counters. */
export type ConversationChanges = Partial<
  Pick<
    ConversationEntity,
    | 'needsAttention'
    | 'flowState'
    | 'context'
    | 'isAiChatPaused'
    | 'pauseAnnounced'
    | 'handoffReason'
    | 'handoffSource'
    | 'handoffAt'
  >
>;

export interface Bumped {
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
  isAiChatPaused: 'is_ai_chat_paused',
  pauseAnnounced: 'pause_announced',
  handoffReason: 'handoff_reason',
  handoffSource: 'handoff_source',
  handoffAt: 'handoff_at',
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

export interface ChannelUser {
  channelType: ConversationChannel;
  channelUserId: string;
  isTestChannel: boolean;
  username: string | null;
  /** The agent's channel the user came through, when a channel carries the conversation. */
  channelId?: string;
  /** The provider's profile name of the user: a new contact's `full_name`. */
  profileName?: string | null;
}

/**
 * Conversations and the messages added to them. It only reads and writes: announcing a new
 * conversation, message or hand-off is the caller's (see ConversationWrites).
 */
@Injectable()
export class ConversationsRepository {
  private readonly lists: ListPages<ConversationEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, ConversationEntity, CONVERSATION_LIST);
  }

  findOwned(teamId: string, agentId: string, id: string): Promise<ConversationEntity | null> {
    return this.db.findOne(ConversationEntity, { teamId, agentId, id });
  }

  /** The channel user's conversation with the agent, or null before their first message. */
  findForChannelUser(
    teamId: string,
    agentId: string,
    user: Pick<ChannelUser, 'channelType' | 'channelUserId' | 'isTestChannel'>,
  ): Promise<ConversationEntity | null> {
    const { channelType, channelUserId, isTestChannel } = user;
    return this.db.findOne(ConversationEntity, {
      teamId,
      agentId,
      channelType,
      channelUserId,
      isTestChannel,
    });
  }

  /** The team's conversation by id, whatever its agent. */
  find(teamId: string, id: string): Promise<ConversationEntity | null> {
    return this.db.findOne(ConversationEntity, { teamId, id });
  }

  async list(
    scope: ConversationScope,
    query: ConversationListQueryDto,
  ): Promise<Page<ConversationEntity>> {
    const { table, filter } = listRead(scope, query);
    return Page.from(await this.lists.page(filter, query, table), query);
  }

  /** How many of the filtered conversations are in each status, need attention, have no one. */
  async counts(
    scope: ConversationScope,
    filters: ConversationFiltersDto,
  ): Promise<ConversationCountsDto> {
    const read = countsRead(scope, filters);
    const { rows } = await this.db.execute(read.sql, read.params);
    return read.counts(rows[0]);
  }

  /**
   * Counts a new message on the conversation (when it is the agent's), applying `changes`; the
   * conversation as updated, and its agent's status. The counter update locks the conversation
   * row, so sequence numbers follow commit order; the timestamp never goes back either.
   */
  bump(
    conversation: ConversationKey,
    draft: MessageDraft,
    changes: ConversationChanges,
  ): Promise<Bumped | null> {
    const { teamId, agentId, id } = conversation;
    return this.bumpWhere('id = $3', [teamId, agentId, id], draft, changeColumns(changes));
  }

  /** `bump` for the channel user's conversation, naming the user as they last called themselves. */
  bumpForChannelUser(
    teamId: string,
    agentId: string,
    user: ChannelUser,
    draft: MessageDraft,
    clearsAttention: boolean,
  ): Promise<Bumped | null> {
    return this.bumpWhere(
      'channel_type = $3 AND channel_user_id = $4 AND is_test_channel = $5',
      [teamId, agentId, user.channelType, user.channelUserId, user.isTestChannel],
      draft,
      {
        ...(clearsAttention ? { needs_attention: false } : {}),
        ...(user.username ? { channel_user_username: user.username } : {}),
      },
    );
  }

  /**
   * The channel user's conversation, created unless it exists (safe under concurrent first
   * messages); null when it existed. The caller has made sure the agent is the team's.
   */
  async createIfNew(
    teamId: string,
    agentId: string,
    user: ChannelUser,
  ): Promise<ConversationEntity | null> {
    const now = new Date();
    const conversation: ConversationEntity = {
      id: newId(),
      teamId,
      agentId,
      channelType: user.channelType,
      channelId: user.channelId ?? null,
      channelUserId: user.channelUserId,
      channelUserUsername: user.username,
      isTestChannel: user.isTestChannel,
      isAiChatPaused: false,
      needsAttention: false,
      lastMessageAt: null,
      lastSeen: null,
      lastMessagePreview: null,
      contactId: null,
      lastSeq: 0,
      flowState: null,
      context: null,
      ...inboxDefaults(),
      createdAt: now,
      updatedAt: now,
    };
    const created = await this.db.insert(ConversationEntity, [conversation], { orIgnore: true });
    return created > 0 ? conversation : null;
  }

  /** Stores the message `bump` counted, at the position it gave it. */
  async insertMessage(
    { conversation, agentStatus }: Bumped,
    draft: MessageDraft,
  ): Promise<Appended> {
    const id = newId();
    const message: MessageEntity = {
      id,
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      seq: conversation.lastSeq,
      role: draft.role,
      message: draft.text,
      messageType: draft.messageType,
      attachments:
        draft.attachments?.({
          agentId: conversation.agentId,
          conversationId: conversation.id,
          id,
        }) ?? [],
      action: draft.action,
      authorType: draft.author.type,
      authorId: draft.author.id,
      authorName: draft.author.name,
      deliveryStatus: null,
      deliveryError: null,
      deliveryUpdatedAt: null,
      createdAt: conversation.lastMessageAt!,
    };
    await this.db.insert(MessageEntity, [message]);
    return { message, conversation, agentStatus };
  }

  /**
   * Sets `needs_attention`; true when it was not set before. The conditional update decides under
   * the row's lock, so of two concurrent hand-offs only one is the moment it became set.
   */
  async raiseAttention(teamId: string, id: string): Promise<boolean> {
    const changed = await this.db.update(
      ConversationEntity,
      { teamId, id, needsAttention: false },
      { needsAttention: true },
    );
    return changed > 0;
  }

  async update(teamId: string, id: string, changes: Changes<ConversationEntity>): Promise<void> {
    await this.db.update(ConversationEntity, { teamId, id }, changes);
  }

  /**
   * Counts a new message on the conversation `where` picks among the agent's ($1 team, $2 agent),
   * applying `columns`; the conversation as updated, and its agent's status, in one statement.
   * A private note leaves the preview alone: the preview shows the exchange with the customer.
   */
  private async bumpWhere(
    where: string,
    whereParams: SqlParam[],
    { role, text, messageType }: MessageDraft,
    columns: Record<string, SqlParam>,
  ): Promise<Bumped | null> {
    const params: SqlParam[] = [...whereParams];
    const now = `$${params.push(new Date())}`;
    const preview = text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_LENGTH);
    const sets = [
      'last_seq = last_seq + 1',
      `last_message_at = CASE WHEN last_message_at > ${now} THEN last_message_at ELSE ${now} END`,
      ...(isPrivate({ messageType }) ? [] : [`last_message_preview = $${params.push(preview)}`]),
      `updated_at = ${now}`,
      ...(role === 'user' ? [`last_seen = ${now}`] : []),
      ...Object.entries(columns).map(([column, value]) => `${column} = $${params.push(value)}`),
    ];
    const { rows } = await this.db.write(() =>
      this.db.execute(
        `UPDATE conversations SET ${sets.join(', ')}
         WHERE team_id = $1 AND agent_id = $2 AND ${where}
         RETURNING *, (SELECT status FROM agents
           WHERE agents.team_id = conversations.team_id AND agents.id = conversations.agent_id
         ) AS agent_status`,
        params,
      ),
    );
    if (rows.length === 0) {
      return null;
    }
    return {
      conversation: this.db.hydrate(ConversationEntity, rows)[0],
      agentStatus: rows[0].agent_status as AgentStatus,
    };
  }
}
