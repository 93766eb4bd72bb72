import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { ConversationEvents } from '../conversation-events';
import { ConversationEntity } from '../entities/conversation.entity';
import { SnoozesRepository } from './snoozes.repository';

/**
 * Reopens snoozed conversations when their snooze ends, on whichever instance sweeps first: each
 * is a leased job (see `JobWorker`), so a snooze ends once whatever the number of instances, and
 * still ends when the instance that took it died. The sweep runs every second: a snooze ends at
 * most about a second late.
 */
@Injectable()
export class SnoozeEndsWorker extends JobWorker<ConversationEntity, ConversationEntity> {
  protected readonly logger = new Logger(SnoozeEndsWorker.name);

  constructor(
    db: Database,
    private readonly snoozes: SnoozesRepository,
    private readonly events: ConversationEvents,
  ) {
    super(db, {
      concurrency: 4,
      perTeam: 2,
      leaseMs: 30_000,
      sweepIntervalMs: 1_000,
      sweepGraceMs: 0,
    });
  }

  protected findDue(limit: number, perTeam: number, dueBy: Date): Promise<ConversationEntity[]> {
    return this.snoozes.due(limit, perTeam, dueBy);
  }

  protected claim(job: ConversationEntity): Promise<Claim<ConversationEntity> | null> {
    return this.snoozes.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: ConversationEntity, claim: Claim<ConversationEntity>): Promise<boolean> {
    return this.snoozes.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.snoozes.releaseAll();
  }

  protected async perform(_job: ConversationEntity, { row, token }: Claim<ConversationEntity>) {
    const now = new Date();
    const reopened: ConversationEntity = {
      ...row,
      status: 'open',
      snoozedUntil: null,
      snoozeLeaseUntil: null,
      snoozeLeaseToken: null,
      updatedAt: now,
    };
    const settled = await this.snoozes.reopen(row.id, token, now, () =>
      this.events.statusChanged(reopened),
    );
    if (settled) {
      this.logger.log({ conversation_id: row.id }, 'Snooze ended; conversation reopened');
    }
  }
}
