import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { SqlParam } from '@/database/sql/params';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { ActionRunsRepository } from './action-runs.repository';
import { toActionRunResponse } from './dto/action-run.dto';
import { ActionRunEntity, ActionRunStatus } from './entities/action-run.entity';
import { leaseFrom, RUN_LEASE_MS } from './run-lease';

export type Outcome =
  | { ok: true; result: unknown; customerText?: string | null }
  | { ok: false; error: string; customerText?: string | null };

/** What settling a run writes besides its outcome, in the same transaction (e.g. a follow-up). */
export type AfterSettle = (settled: ActionRunEntity) => Promise<void>;

/** The webhook event a run's new status announces, if any (`running` announces nothing). */
function eventOf(status: ActionRunStatus) {
  switch (status) {
    case 'pending_approval':
      return 'action_run.pending_approval' as const;
    case 'succeeded':
    case 'failed':
    case 'rejected':
      return 'action_run.completed' as const;
    case 'running':
      return null;
  }
}

function outcomeColumns(outcome: Outcome): Record<string, SqlParam> {
  // `result` is JSON as the ORM stores it: a string result is stored quoted.
  return outcome.ok
    ? {
        status: 'succeeded',
        result: outcome.result === undefined ? null : JSON.stringify(outcome.result),
        error: null,
        customer_text: outcome.customerText ?? null,
      }
    : { status: 'failed', error: outcome.error, customer_text: outcome.customerText ?? null };
}

/**
 * Each change of a run's status, announced to webhooks in its transaction. A `running` run is
 * held by a token (its caller's, or the sweeper's once the caller's lease ran out), and only the
 * holder settles it: a caller whose lease ran out cannot overwrite the outcome written since.
 */
@Injectable()
export class RunStates {
  constructor(
    private readonly db: Database,
    private readonly runs: ActionRunsRepository,
    private readonly webhooks: WebhookEvents,
  ) {}

  /** Writes a run about to be called, `running` under a lease; the token that holds it. */
  async start(run: ActionRunEntity): Promise<string> {
    const token = randomUUID();
    await this.runs.insert({
      ...run,
      status: 'running',
      leaseUntil: leaseFrom(),
      leaseToken: token,
    });
    return token;
  }

  /** A run that waits for a person's approval before it is called. */
  async park(run: ActionRunEntity): Promise<ActionRunEntity> {
    const parked: ActionRunEntity = { ...run, status: 'pending_approval' };
    await this.db.transaction(async () => {
      await this.runs.insert(parked);
      await this.announce(parked);
    });
    return parked;
  }

  /**
   * Takes a waiting run for the person who approved it, under a lease: from here a follow-up is
   * owed to the customer, written when the run is settled (whoever settles it). The token that
   * holds it; null when it was decided already.
   */
  async claimApproval(teamId: string, id: string, keyId: string): Promise<string | null> {
    const token = randomUUID();
    const claimed = await this.runs.moveFrom(teamId, id, ['pending_approval'], {
      status: 'running',
      decidedByApiKeyId: keyId,
      leaseUntil: leaseFrom(),
      leaseToken: token,
    });
    return claimed ? token : null;
  }

  /** A waiting run refused by a person (`keyId`) or by its action going; null when decided. */
  reject(
    run: Pick<ActionRunEntity, 'teamId' | 'agentId' | 'id'>,
    keyId: string | null,
    reason: string | null,
    after?: AfterSettle,
  ): Promise<ActionRunEntity | null> {
    return this.db.transaction(async () => {
      const rejected = await this.runs.moveFrom(run.teamId, run.id, ['pending_approval'], {
        status: 'rejected',
        decidedByApiKeyId: keyId,
        error: reason ?? 'Rejected',
      });
      return rejected ? this.announceSettled(run, after) : null;
    });
  }

  /** Extends the lease while `token` holds the run; false once it was lost. */
  renew(id: string, token: string): Promise<boolean> {
    return this.runs.jobs.renew(id, token, RUN_LEASE_MS);
  }

  /** What the call answered, while `token` holds the run; null when another settled it. */
  complete(
    run: ActionRunEntity,
    token: string,
    outcome: Outcome,
    after?: AfterSettle,
  ): Promise<ActionRunEntity | null> {
    return this.settle(run, token, outcomeColumns(outcome), after);
  }

  /**
   * A run whose caller stopped during the call: failed, never called again, as nobody knows
   * whether the other side acted. Null when `token` no longer holds it.
   */
  interrupt(
    run: ActionRunEntity,
    token: string,
    after?: AfterSettle,
  ): Promise<ActionRunEntity | null> {
    return this.settle(run, token, { status: 'failed', error: 'interrupted' }, after);
  }

  /**
   * `interrupt` for a run found still running by a reply produced again: the attempt that
   * started it is gone (the reply's lease ran out), so its claim is void. Null when it was
   * settled meanwhile.
   */
  interruptAbandoned(run: ActionRunEntity): Promise<ActionRunEntity | null> {
    return this.db.transaction(async () => {
      const interrupted = await this.runs.moveFrom(run.teamId, run.id, ['running'], {
        status: 'failed',
        error: 'interrupted',
        leaseUntil: null,
        leaseToken: null,
      });
      return interrupted ? this.announceSettled(run) : null;
    });
  }

  private async settle(
    run: ActionRunEntity,
    token: string,
    columns: Record<string, SqlParam>,
    after?: AfterSettle,
  ): Promise<ActionRunEntity | null> {
    const settled = await this.runs.jobs.settleWith(
      run.id,
      token,
      { ...columns, updated_at: new Date() },
      () => this.announceSettled(run, after),
    );
    return settled?.result ?? null;
  }

  private async announceSettled(
    run: Pick<ActionRunEntity, 'teamId' | 'agentId' | 'id'>,
    after?: AfterSettle,
  ): Promise<ActionRunEntity> {
    const settled = (await this.runs.findOwned(run.teamId, run.agentId, run.id))!;
    await this.announce(settled);
    await after?.(settled);
    return settled;
  }

  private async announce(run: ActionRunEntity): Promise<void> {
    const type = eventOf(run.status);
    if (type) {
      await this.webhooks.emit(run.teamId, type, toActionRunResponse(run));
    }
  }
}
