import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { followUpDecision } from './run-follow-up';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunEntity } from './entities/action-run.entity';
import { RUN_LEASE_MS } from './run-lease';

const SWEEP_INTERVAL_MS = RUN_LEASE_MS / 3;
const SWEEP_BATCH = 50;
/** Rows from before leases: running longer than any call can take (a tool's up to 300 s). */
const UNLEASED_STALE_MS = 310_000;

/**
 * Settles runs whose caller died during the call (their lease ran out): failed "interrupted",
 * never called again, since nobody knows whether the other side acted. A run a person had
 * approved also owes the customer a follow-up: it is written in the same transaction, so it is
 * written once, whether the approver or a sweep settles the run. A run taken by a reply is
 * followed up by that reply, produced again from its pending mark.
 */
@Injectable()
export class RunSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RunSweeper.name);
  private readonly unleasedStaleMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly runs: ActionRunsRepository,
    private readonly conversations: ConversationsService,
    config: AppConfig,
  ) {
    this.unleasedStaleMs = Math.max(config.outbound.timeoutMs, UNLEASED_STALE_MS);
  }

  async onApplicationBootstrap(): Promise<void> {
    // Embedded mode has one process: whatever it left running was cut off by its own stop.
    if (this.db.kind === 'sqlite') {
      await this.sweep();
      return;
    }
    // In a cluster another instance may be calling a run right now: only lapsed leases count.
    await this.sweep(new Date());
    this.sweeper = setInterval(() => void this.sweep(new Date()), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** Every abandoned run (lapsed before `now`; with no `now`, every running one). */
  private async sweep(now?: Date): Promise<void> {
    try {
      let settled = 0;
      for (;;) {
        const batch = await this.runs.abandoned(
          SWEEP_BATCH,
          now,
          now && new Date(now.getTime() - this.unleasedStaleMs),
        );
        let progress = 0;
        for (const run of batch) {
          progress += (await this.settle(run)) ? 1 : 0;
        }
        settled += progress;
        if (batch.length < SWEEP_BATCH || progress === 0) {
          break;
        }
      }
      if (settled > 0) {
        this.logger.warn(
          { count: settled },
          'Action runs interrupted by a stop were marked failed',
        );
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not look for interrupted action runs');
    }
  }

  private settle(run: ActionRunEntity): Promise<boolean> {
    return this.db.transaction(async () => {
      if (!(await this.runs.interrupt(run.teamId, run.id))) {
        return false;
      }
      if (run.decidedByApiKeyId) {
        const interrupted = await this.runs.findOwned(run.teamId, run.agentId, run.id);
        await followUpDecision(this.conversations, interrupted!);
      }
      return true;
    });
  }
}
