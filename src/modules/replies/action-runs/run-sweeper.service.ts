import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { followUpDecision } from './run-follow-up';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunEntity } from './entities/action-run.entity';
import { RUN_LEASE_MS } from './run-lease';
import { RunStates } from './run-states';

/** Runs settled at once in one process, and of one team. */
const CONCURRENCY = 4;
const PER_TEAM = 2;

/**
 * Settles runs whose caller died during the call (their lease ran out): each is a job (see
 * `JobWorker`), claimed and failed "interrupted", never called again, since nobody knows whether
 * the other side acted. A run a person had approved also owes the customer a follow-up: it is
 * written in the same transaction, so it is written once, whether the approver or a sweep
 * settles the run. A run taken by a reply is followed up by that reply, produced again from its
 * pending mark. In embedded mode whatever was left running at start was cut off by the stop.
 */
@Injectable()
export class RunSweeper extends JobWorker<QueuedJob, ActionRunEntity> {
  protected readonly logger = new Logger(RunSweeper.name);

  constructor(
    db: Database,
    private readonly runs: ActionRunsRepository,
    private readonly states: RunStates,
    private readonly conversations: ConversationsService,
  ) {
    super(db, {
      concurrency: CONCURRENCY,
      perTeam: PER_TEAM,
      leaseMs: RUN_LEASE_MS,
      sweepIntervalMs: RUN_LEASE_MS / 3,
      sweepGraceMs: 0,
    });
  }

  protected async findDue(limit: number, perTeam: number, dueBy: Date): Promise<QueuedJob[]> {
    const due = await this.runs.jobs.due(limit, perTeam, dueBy);
    return due.map((run) => ({ id: run.id, teamId: run.teamId }));
  }

  protected claim(job: QueuedJob): Promise<Claim<ActionRunEntity> | null> {
    return this.runs.jobs.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: QueuedJob, claim: Claim<ActionRunEntity>): Promise<boolean> {
    return this.runs.jobs.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.runs.expireAllLeases();
  }

  protected async perform(job: QueuedJob, { row: run, token }: Claim<ActionRunEntity>) {
    const followUp = run.decidedByApiKeyId
      ? (interrupted: ActionRunEntity) => followUpDecision(this.conversations, interrupted)
      : undefined;
    if (await this.states.interrupt(run, token, followUp)) {
      this.logger.warn({ run_id: run.id }, 'An action run interrupted by a stop was marked failed');
    }
  }
}
