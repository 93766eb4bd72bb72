import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { MessageListQueryDto } from '../dto/message.dto';
import { MessageEntity } from '../entities/message.entity';

@Injectable()
export class MessagesRepository {
  constructor(private readonly db: Database) {}

  list(
    teamId: string,
    conversationId: string,
    query: MessageListQueryDto,
  ): Promise<Page<MessageEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(MessageEntity, 'message')
      .where('message.team_id = :teamId AND message.conversation_id = :conversationId', {
        teamId,
        conversationId,
      });
    return paginate(builder, query, {
      searchColumns: ['message.message'],
      sortColumns: { created_at: 'message.created_at' },
      defaultSort: 'created_at',
      tieBreaker: 'message.seq',
    });
  }

  findOwned(teamId: string, conversationId: string, id: string): Promise<MessageEntity | null> {
    return this.db.entity(
      MessageEntity,
      'SELECT * FROM messages WHERE team_id = $1 AND conversation_id = $2 AND id = $3',
      [teamId, conversationId, id],
    );
  }

  /** Messages after position `seq` (and up to `upTo`, when given), oldest first. */
  afterSeq(
    teamId: string,
    conversationId: string,
    seq: number,
    limit: number,
    upTo?: number,
  ): Promise<MessageEntity[]> {
    const query = this.db.manager
      .createQueryBuilder(MessageEntity, 'message')
      .where('message.team_id = :teamId AND message.conversation_id = :conversationId', {
        teamId,
        conversationId,
      })
      .andWhere('message.seq > :seq', { seq });
    if (upTo !== undefined) {
      query.andWhere('message.seq <= :upTo', { upTo });
    }
    return query.orderBy('message.seq', 'ASC').limit(limit).getMany();
  }

  /** The position just before the first message created after `time`. */
  async seqAtTime(teamId: string, conversationId: string, time: Date): Promise<number> {
    const firstAfter = await this.db.manager.findOne(MessageEntity, {
      where: { teamId, conversationId, createdAt: MoreThan(time) },
      order: { seq: 'ASC' },
    });
    return firstAfter
      ? firstAfter.seq - 1
      : ((await this.newest(teamId, conversationId))?.seq ?? 0);
  }

  newest(teamId: string, conversationId: string): Promise<MessageEntity | null> {
    return this.db.manager.findOne(MessageEntity, {
      where: { teamId, conversationId },
      order: { seq: 'DESC' },
    });
  }

  /** The customer's latest message in the conversation. */
  lastFromUser(teamId: string, conversationId: string): Promise<MessageEntity | null> {
    return this.db.manager.findOne(MessageEntity, {
      where: { teamId, conversationId, role: 'user' },
      order: { seq: 'DESC' },
    });
  }

  recent(teamId: string, conversationId: string, count: number): Promise<MessageEntity[]> {
    return this.db.manager
      .find(MessageEntity, {
        where: { teamId, conversationId },
        order: { seq: 'DESC' },
        take: count,
      })
      .then((messages) => messages.reverse());
  }
}
