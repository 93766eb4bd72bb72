import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { PendingReplyEntity } from './entities/pending-reply.entity';

/**
 * The replies user messages wait for. Each is a job (see `JobTable`): due once written, oldest
 * first; a claim counts an attempt, and the reply is stored by removing the row through the claim.
 */
@Injectable()
export class PendingRepliesRepository {
  readonly jobs: JobTable<PendingReplyEntity>;

  constructor(private readonly db: Database) {
    this.jobs = new JobTable(db, PendingReplyEntity, {
      table: 'pending_replies',
      due: (params, now) => `created_at <= ${params.add(now)}`,
      dueOrder: 'created_at',
      attempts: 'attempts',
    });
  }

  async add(message: MessageEntity): Promise<PendingReplyEntity> {
    const pending: PendingReplyEntity = {
      id: newId(),
      teamId: message.teamId,
      agentId: message.agentId,
      conversationId: message.conversationId,
      messageId: message.id,
      attempts: 0,
      leaseUntil: null,
      leaseToken: null,
      createdAt: new Date(),
    };
    await this.db.insert(PendingReplyEntity, [pending]);
    return pending;
  }

  /** Replies waiting across every team, and when the oldest of them was asked for (metrics). */
  async backlog(): Promise<{ waiting: number; oldestAt: Date | null }> {
    const [counted, oldest] = await Promise.all([
      this.db.execute<{ waiting: number | string }>(
        'SELECT count(*) AS waiting FROM pending_replies',
      ),
      this.db.entity(
        PendingReplyEntity,
        'SELECT * FROM pending_replies ORDER BY created_at ASC LIMIT 1',
      ),
    ]);
    // PostgreSQL's count is a bigint, which its driver hands over as a string.
    return { waiting: Number(counted.rows[0].waiting), oldestAt: oldest?.createdAt ?? null };
  }
}
