import { Injectable, OnModuleInit } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Page } from '@/common/pagination/page';
import { WritePhase } from '@/common/idempotency/write-phase';
import { AgentsService } from '@/modules/agents/agents.service';
import { ActionWithdrawals } from '@/modules/integrations/action-withdrawals.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { followUpDecision } from './run-follow-up';
import { ACTION_DISABLED, ActionRunner } from './action-runner.service';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunListQueryDto } from './dto/action-run.dto';
import { ActionRunEntity } from './entities/action-run.entity';
import { RunStates } from './run-states';

const DECIDED = 'This action run has been decided already';

/** Reading an agent's action runs, and a person's decision on one that waits for approval. */
@Injectable()
export class ActionRunsService implements OnModuleInit {
  constructor(
    private readonly agents: AgentsService,
    private readonly runs: ActionRunsRepository,
    private readonly states: RunStates,
    private readonly runner: ActionRunner,
    private readonly writePhase: WritePhase,
    private readonly withdrawals: ActionWithdrawals,
    private readonly conversations: ConversationsService,
  ) {}

  onModuleInit(): void {
    this.withdrawals.listen((teamId, agentId, actionIds) =>
      this.rejectWithdrawn(teamId, agentId, actionIds),
    );
  }

  async list(
    teamId: string,
    agentId: string,
    query: ActionRunListQueryDto,
  ): Promise<Page<ActionRunEntity>> {
    await this.agents.requireOwned(teamId, agentId);
    return this.runs.list(teamId, agentId, query);
  }

  async get(teamId: string, agentId: string, id: string): Promise<ActionRunEntity> {
    await this.agents.requireOwned(teamId, agentId);
    const run = await this.runs.findOwned(teamId, agentId, id);
    if (!run) {
      throw Errors.notFound('Action run not found');
    }
    return run;
  }

  /**
   * Runs the waiting action now, then lets the reply that parked it continue. The claim leases
   * the run: should this process die during the call, the RunSweeper settles it as interrupted
   * and writes the follow-up instead. Settling and the follow-up are one transaction, so the
   * customer hears of the run exactly once, whoever settles it.
   */
  async approve(
    teamId: string,
    agentId: string,
    id: string,
    keyId: string,
  ): Promise<ActionRunEntity> {
    const run = await this.get(teamId, agentId, id);
    const token = await this.states.claimApproval(teamId, id, keyId);
    if (!token) {
      throw Errors.conflict(DECIDED);
    }
    const claimed: ActionRunEntity = { ...run, status: 'running', decidedByApiKeyId: keyId };
    const outcome = await this.runner.callApproved(claimed, token);
    return this.writePhase.run(
      async () =>
        (await this.states.complete(claimed, token, outcome, (settled) =>
          followUpDecision(this.conversations, settled),
        )) ?? this.runner.stored(claimed),
    );
  }

  /** Ends the waiting run without calling it; the customer hears it could not be done. */
  async reject(
    teamId: string,
    agentId: string,
    id: string,
    keyId: string,
    reason: string | null,
  ): Promise<ActionRunEntity> {
    await this.get(teamId, agentId, id);
    return this.writePhase.run(async () => {
      const run = await this.rejected(teamId, agentId, id, keyId, reason);
      if (!run) {
        throw Errors.conflict(DECIDED);
      }
      return run;
    });
  }

  /**
   * Runs of actions being disabled or deleted that wait for approval: rejected ("action
   * disabled"), each conversation continued as a person's rejection does, in the caller's
   * transaction.
   */
  private async rejectWithdrawn(
    teamId: string,
    agentId: string,
    actionIds: string[],
  ): Promise<void> {
    for (const run of await this.runs.pendingOf(teamId, agentId, actionIds)) {
      // One a person decided meanwhile keeps their decision.
      await this.rejected(teamId, agentId, run.id, null, ACTION_DISABLED);
    }
  }

  /** The waiting run rejected and its conversation continued; null when it was decided already. */
  private async rejected(
    teamId: string,
    agentId: string,
    id: string,
    keyId: string | null,
    reason: string | null,
  ): Promise<ActionRunEntity | null> {
    return this.states.reject({ teamId, agentId, id }, keyId, reason, (run) =>
      followUpDecision(this.conversations, run),
    );
  }
}
