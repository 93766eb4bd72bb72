import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { ActionRunListQueryDto, toActionRunResponse } from './dto/action-run.dto';
import { ActionRunEntity, ActionRunStatus } from './entities/action-run.entity';

export type Outcome = { ok: true; result: unknown } | { ok: false; error: string };

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

/**
 * Action runs, and each change of a run's status in a method of its own (`park`, `claimApproval`,
 * `complete`, `reject`, `interrupt`), each announcing it to webhooks in its transaction. A run
 * is `running` under a lease (`lease_until`) that its caller renews; settling it out of
 * `running` ends the lease, and only one settling can find it still running.
 */
@Injectable()
export class ActionRunsRepository {
  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhookEvents,
  ) {}

  findOwned(teamId: string, agentId: string, id: string): Promise<ActionRunEntity | null> {
    return this.db.manager.findOneBy(ActionRunEntity, { teamId, agentId, id });
  }

  list(
    teamId: string,
    agentId: string,
    query: ActionRunListQueryDto,
  ): Promise<Page<ActionRunEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(ActionRunEntity, 'run')
      .where('run.team_id = :teamId AND run.agent_id = :agentId', { teamId, agentId });
    if (query.status) {
      builder.andWhere('run.status = :status', { status: query.status });
    }
    if (query.conversation_id) {
      builder.andWhere('run.conversation_id = :conversationId', {
        conversationId: query.conversation_id,
      });
    }
    return paginate(builder, query, {
      searchColumns: ['run.action_name'],
      sortColumns: { created_at: 'run.created_at' },
      defaultSort: '-created_at',
      tieBreaker: 'run.id',
    });
  }

  /** The runs a reply to `messageId` already started: a retried reply reuses them. */
  forMessage(teamId: string, messageId: string): Promise<ActionRunEntity[]> {
    return this.db.manager.find(ActionRunEntity, {
      where: { teamId, messageId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Writes a run about to be called (`running`, leased) or waiting for a person (`park`). */
  async start(run: ActionRunEntity): Promise<void> {
    await this.db.write(() =>
      this.db.manager.insert(ActionRunEntity, run as QueryDeepPartialEntity<ActionRunEntity>),
    );
  }

  /** A run that waits for a person's approval before it is called. */
  async park(run: ActionRunEntity): Promise<void> {
    const parked: ActionRunEntity = { ...run, status: 'pending_approval' };
    await this.db.transaction(async () => {
      await this.start(parked);
      await this.announce(parked);
    });
  }

  /**
   * Takes a waiting run for the person who approved it, leased until `leaseUntil`: from here a
   * follow-up is owed to the customer, written when the run is settled (whoever settles it).
   * False when it was decided already.
   */
  claimApproval(teamId: string, id: string, keyId: string, leaseUntil: Date): Promise<boolean> {
    return this.move(teamId, id, ['pending_approval'], {
      status: 'running',
      decidedByApiKeyId: keyId,
      leaseUntil,
    });
  }

  /** A waiting run refused by a person (`keyId`) or by its action going; false when decided. */
  reject(
    teamId: string,
    id: string,
    keyId: string | null,
    reason: string | null,
  ): Promise<boolean> {
    return this.move(teamId, id, ['pending_approval'], {
      status: 'rejected',
      decidedByApiKeyId: keyId,
      error: reason ?? 'Rejected',
    });
  }

  /** The agent's runs of `actionIds` that wait for approval. */
  pendingOf(teamId: string, agentId: string, actionIds: string[]): Promise<ActionRunEntity[]> {
    return this.db.manager.find(ActionRunEntity, {
      where: { teamId, agentId, actionId: In(actionIds), status: 'pending_approval' },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Extends the lease of a run still `running` (its caller is alive and still calling). */
  async renew(teamId: string, id: string, leaseUntil: Date): Promise<void> {
    await this.db.write(() =>
      this.db.manager.update(ActionRunEntity, { teamId, id, status: 'running' }, { leaseUntil }),
    );
  }

  /** What the call answered, on a run that is `running`; false when another settled it. */
  complete(teamId: string, id: string, outcome: Outcome): Promise<boolean> {
    return this.move(
      teamId,
      id,
      ['running'],
      outcome.ok
        ? { status: 'succeeded', result: outcome.result as never, error: null, leaseUntil: null }
        : { status: 'failed', error: outcome.error, leaseUntil: null },
    );
  }

  /**
   * A run whose caller stopped during the call: failed, never called again, as nobody knows
   * whether the other side acted. False when it was settled meanwhile.
   */
  interrupt(teamId: string, id: string): Promise<boolean> {
    return this.move(teamId, id, ['running'], {
      status: 'failed',
      error: 'interrupted',
      leaseUntil: null,
    });
  }

  /**
   * Runs `running` whose caller is gone, across every team: lease run out before `now` (rows
   * from before leases: not touched since `unleasedBefore`), or all of them with no `now`.
   */
  abandoned(limit: number, now?: Date, unleasedBefore?: Date): Promise<ActionRunEntity[]> {
    const query = this.db.manager
      .createQueryBuilder(ActionRunEntity, 'run')
      .where('run.status = :running', { running: 'running' });
    if (now) {
      query.andWhere(
        new Brackets((lapsed) =>
          lapsed
            .where('run.lease_until < :now', { now })
            .orWhere('run.lease_until IS NULL AND run.updated_at < :unleasedBefore', {
              unleasedBefore: unleasedBefore ?? now,
            }),
        ),
      );
    }
    return query.orderBy('run.created_at', 'ASC').limit(limit).getMany();
  }

  private async move(
    teamId: string,
    id: string,
    from: ActionRunStatus[],
    changes: QueryDeepPartialEntity<ActionRunEntity>,
  ): Promise<boolean> {
    return this.db.transaction(async () => {
      const result = await this.db.manager.update(
        ActionRunEntity,
        { teamId, id, status: In(from) },
        { ...changes, updatedAt: new Date() },
      );
      if ((result.affected ?? 0) === 0) {
        return false;
      }
      await this.announce((await this.db.manager.findOneBy(ActionRunEntity, { teamId, id }))!);
      return true;
    });
  }

  private async announce(run: ActionRunEntity): Promise<void> {
    const type = eventOf(run.status);
    if (type) {
      await this.webhooks.emit(run.teamId, type, toActionRunResponse(run));
    }
  }
}
