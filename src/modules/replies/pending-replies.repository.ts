import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { PendingReplyEntity } from './entities/pending-reply.entity';

@Injectable()
export class PendingRepliesRepository {
  constructor(private readonly db: Database) {}

  async add(message: MessageEntity): Promise<PendingReplyEntity> {
    const pending: PendingReplyEntity = {
      id: newId(),
      teamId: message.teamId,
      agentId: message.agentId,
      conversationId: message.conversationId,
      messageId: message.id,
      attempts: 0,
      leaseUntil: null,
      createdAt: new Date(),
    };
    await this.db.write(() => this.db.insert(PendingReplyEntity, [pending]));
    return pending;
  }

  /** Takes the reply for `leaseMs`, as claimed; null when another worker holds it or it is done. */
  async claim(teamId: string, id: string, leaseMs: number): Promise<PendingReplyEntity | null> {
    const now = new Date();
    const { rows } = await this.db.write(() =>
      this.db.execute(
        `UPDATE pending_replies SET lease_until = $3, attempts = attempts + 1
         WHERE team_id = $1 AND id = $2 AND (lease_until IS NULL OR lease_until < $4)
         RETURNING *`,
        [teamId, id, new Date(now.getTime() + leaseMs), now],
      ),
    );
    return this.db.hydrate(PendingReplyEntity, rows)[0] ?? null;
  }

  /** Extends the lease of a reply this worker holds. */
  async renew(teamId: string, id: string, leaseMs: number): Promise<void> {
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(PendingReplyEntity)
        .set({ leaseUntil: new Date(Date.now() + leaseMs) })
        .where('team_id = :teamId AND id = :id AND lease_until IS NOT NULL', { teamId, id })
        .execute(),
    );
  }

  async remove(teamId: string, id: string): Promise<boolean> {
    const { changes } = await this.db.write(() =>
      this.db.execute('DELETE FROM pending_replies WHERE team_id = $1 AND id = $2', [teamId, id]),
    );
    return changes > 0;
  }

  /**
   * Replies nobody is producing: never claimed, or claimed by a worker whose lease ran out. Across
   * every team, as the sweep that hands them out serves them all; each carries its team onwards.
   */
  unclaimed(limit: number, olderThan: Date): Promise<PendingReplyEntity[]> {
    return this.db.manager
      .createQueryBuilder(PendingReplyEntity, 'pending')
      .where('pending.created_at < :olderThan', { olderThan })
      .andWhere(
        new Brackets((open) =>
          open
            .where('pending.lease_until IS NULL')
            .orWhere('pending.lease_until < :now', { now: new Date() }),
        ),
      )
      .orderBy('pending.created_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Replies waiting across every team, and when the oldest of them was asked for (metrics). */
  async backlog(): Promise<{ waiting: number; oldestAt: Date | null }> {
    const [waiting, oldest] = await Promise.all([
      this.db.manager.count(PendingReplyEntity),
      this.db.manager
        .createQueryBuilder(PendingReplyEntity, 'pending')
        .orderBy('pending.created_at', 'ASC')
        .limit(1)
        .getOne(),
    ]);
    return { waiting, oldestAt: oldest?.createdAt ?? null };
  }

  /** Frees every lease: used at start in embedded mode, where no other process can hold one. */
  async releaseAllLeases(): Promise<void> {
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(PendingReplyEntity)
        .set({ leaseUntil: null })
        .execute(),
    );
  }
}
