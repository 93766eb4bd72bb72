import { Injectable } from '@nestjs/common';
import { Brackets, EntityManager } from 'typeorm';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { MessageEntity, PendingReplyEntity } from '../entities/message.entity';

@Injectable()
export class PendingRepliesRepository {
  constructor(private readonly db: Database) {}

  async add(manager: EntityManager, message: MessageEntity): Promise<PendingReplyEntity> {
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
    await manager.insert(PendingReplyEntity, pending);
    return pending;
  }

  /** Takes the reply for `leaseMs`; false when another worker holds it or it is done. */
  async claim(id: string, leaseMs: number): Promise<boolean> {
    const now = new Date();
    const result = await this.db.transaction((manager) =>
      manager
        .createQueryBuilder()
        .update(PendingReplyEntity)
        .set({ leaseUntil: new Date(now.getTime() + leaseMs), attempts: () => 'attempts + 1' })
        .where('id = :id', { id })
        .andWhere(
          new Brackets((open) =>
            open.where('lease_until IS NULL').orWhere('lease_until < :now', { now }),
          ),
        )
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  find(id: string, manager = this.db.manager): Promise<PendingReplyEntity | null> {
    return manager.findOneBy(PendingReplyEntity, { id });
  }

  async remove(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager.delete(PendingReplyEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  /** Replies nobody is producing: never claimed, or claimed by a worker whose lease ran out. */
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

  /** Frees every lease: used at start in embedded mode, where no other process can hold one. */
  async releaseAllLeases(): Promise<void> {
    await this.db.transaction((manager) =>
      manager.createQueryBuilder().update(PendingReplyEntity).set({ leaseUntil: null }).execute(),
    );
  }
}
