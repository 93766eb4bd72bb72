import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { Claim, JobTable } from '@/database/jobs/job-table';
import { ConversationEntity } from '../entities/conversation.entity';
import { ConversationLabels } from './conversation-labels';

/**
 * Snoozes that end, as leased jobs: a snoozed conversation whose `snoozed_until` has passed is
 * due. Changing the status or the snooze voids a claim (ConversationInbox clears the lease).
 */
@Injectable()
export class SnoozesRepository {
  private readonly jobs: JobTable<ConversationEntity>;

  constructor(
    db: Database,
    private readonly labels: ConversationLabels,
  ) {
    this.jobs = new JobTable(db, ConversationEntity, {
      table: 'conversations',
      due: (params, now) => `status = 'snoozed' AND snoozed_until <= ${params.add(now)}`,
      dueOrder: 'snoozed_until',
      leaseColumn: 'snooze_lease_until',
      tokenColumn: 'snooze_lease_token',
    });
  }

  due(limit: number, perTeam: number, now: Date): Promise<ConversationEntity[]> {
    return this.jobs.due(limit, perTeam, now);
  }

  claim(id: string, leaseMs: number, now = new Date()): Promise<Claim<ConversationEntity> | null> {
    return this.jobs.claim(id, leaseMs, now);
  }

  renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    return this.jobs.renew(id, token, leaseMs);
  }

  /**
   * Opens the conversation (and its label rows) while `token` still holds it, then runs
   * `announce` in the same transaction; null when the claim was lost (the snooze changed, or
   * another took it).
   */
  reopen<R>(id: string, token: string, now: Date, announce: () => Promise<R>) {
    return this.jobs.settleWith(
      id,
      token,
      { status: 'open', snoozed_until: null, updated_at: now },
      async () => {
        await this.labels.opened(id);
        return announce();
      },
    );
  }

  releaseAll(): Promise<void> {
    return this.jobs.releaseAll();
  }
}
