import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
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
 * `complete`, `reject`, `interruptRunning`), each announcing it to webhooks in its transaction.
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

  /** Writes a run about to be called (`running`) or waiting for a person (`park`). */
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

  /** Takes a waiting run for the person who approved it; false when it was decided already. */
  claimApproval(teamId: string, id: string, keyId: string): Promise<boolean> {
    return this.move(teamId, id, ['pending_approval'], {
      status: 'running',
      decidedByApiKeyId: keyId,
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

  /** What the call answered, on a run that is `running`. */
  complete(teamId: string, id: string, outcome: Outcome): Promise<boolean> {
    return this.move(
      teamId,
      id,
      ['running'],
      outcome.ok
        ? { status: 'succeeded', result: outcome.result as never, error: null }
        : { status: 'failed', error: outcome.error },
    );
  }

  /**
   * Runs left `running` by a process that stopped while calling them, last touched before
   * `before`: failed, never called again, as nobody knows whether the other side acted.
   */
  async interruptRunning(before: Date, teamId?: string, id?: string): Promise<number> {
    return this.db.transaction(async () => {
      const stale = await this.db.manager.find(ActionRunEntity, {
        where: {
          status: 'running',
          updatedAt: LessThan(before),
          ...(teamId ? { teamId } : {}),
          ...(id ? { id } : {}),
        },
      });
      let interrupted = 0;
      for (const run of stale) {
        if (
          await this.move(run.teamId, run.id, ['running'], {
            status: 'failed',
            error: 'interrupted',
          })
        ) {
          interrupted += 1;
        }
      }
      return interrupted;
    });
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
