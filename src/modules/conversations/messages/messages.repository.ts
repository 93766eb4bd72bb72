import { Injectable } from '@nestjs/common';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { MessageListQueryDto } from '../dto/message.dto';
import { CUSTOMER_MESSAGE_TYPES, MessageEntity } from '../entities/message.entity';

const MESSAGE_LIST: ListTable = {
  from: 'messages message',
  columns: 'message.*',
  searchColumns: ['message.message'],
  sortColumns: { created_at: 'message.created_at' },
  defaultSort: 'created_at',
  tieBreaker: 'message.seq',
};

@Injectable()
export class MessagesRepository {
  private readonly lists: ListPages<MessageEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, MessageEntity, MESSAGE_LIST);
  }

  async list(
    teamId: string,
    conversationId: string,
    query: MessageListQueryDto,
  ): Promise<Page<MessageEntity>> {
    const filter = {
      where: 'message.team_id = $1 AND message.conversation_id = $2',
      params: [teamId, conversationId],
    };
    return Page.from(await this.lists.page(filter, query), query);
  }

  findOwned(teamId: string, conversationId: string, id: string): Promise<MessageEntity | null> {
    return this.db.findOne(MessageEntity, { teamId, conversationId, id });
  }

  /** Messages after position `seq` (and up to `upTo`, when given), oldest first. */
  afterSeq(
    teamId: string,
    conversationId: string,
    seq: number,
    limit: number,
    upTo?: number,
  ): Promise<MessageEntity[]> {
    const params = new SqlParams();
    const upToCondition = upTo !== undefined ? ` AND seq <= ${params.add(upTo)}` : '';
    return this.db.entities(
      MessageEntity,
      `SELECT * FROM messages WHERE team_id = ${params.add(teamId)} ` +
        `AND conversation_id = ${params.add(conversationId)} AND seq > ${params.add(seq)}` +
        `${upToCondition} ORDER BY seq ASC LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  /** The position just before the first message created after `time`. */
  async seqAtTime(teamId: string, conversationId: string, time: Date): Promise<number> {
    const firstAfter = await this.db.entity(
      MessageEntity,
      'SELECT * FROM messages WHERE team_id = $1 AND conversation_id = $2 AND created_at > $3 ' +
        'ORDER BY seq ASC LIMIT 1',
      [teamId, conversationId, time],
    );
    return firstAfter
      ? firstAfter.seq - 1
      : ((await this.newest(teamId, conversationId))?.seq ?? 0);
  }

  newest(teamId: string, conversationId: string): Promise<MessageEntity | null> {
    return this.db.findOne(MessageEntity, { teamId, conversationId }, { orderBy: { seq: 'DESC' } });
  }

  /** The customer's latest message in the conversation. */
  lastFromUser(teamId: string, conversationId: string): Promise<MessageEntity | null> {
    return this.db.findOne(
      MessageEntity,
      { teamId, conversationId, role: 'user' },
      { orderBy: { seq: 'DESC' } },
    );
  }

  /** The last `count` messages the customer saw (no private notes), oldest first. */
  async recent(teamId: string, conversationId: string, count: number): Promise<MessageEntity[]> {
    const newestFirst = await this.db.find(
      MessageEntity,
      { teamId, conversationId, messageType: CUSTOMER_MESSAGE_TYPES },
      { orderBy: { seq: 'DESC' }, limit: count },
    );
    return newestFirst.reverse();
  }
}
