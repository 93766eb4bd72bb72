import { forwardRef, Inject, Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Page } from '@/common/pagination/page';
import { WritePhase } from '@/common/idempotency/write-phase';
import { AgentsService } from '@/modules/agents/agents.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { ActionRunner } from './action-runner.service';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunListQueryDto } from './dto/action-run.dto';
import { ActionRunEntity } from './entities/action-run.entity';

const DECIDED = 'This action run has been decided already';

/** Reading an agent's action runs, and a person's decision on one that waits for approval. */
@Injectable()
export class ActionRunsService {
  constructor(
    private readonly agents: AgentsService,
    private readonly runs: ActionRunsRepository,
    private readonly runner: ActionRunner,
    private readonly writePhase: WritePhase,
    @Inject(forwardRef(() => ConversationsService))
    private readonly conversations: ConversationsService,
  ) {}

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

  /** Runs the waiting action now, then lets the reply that parked it continue. */
  async approve(
    teamId: string,
    agentId: string,
    id: string,
    keyId: string,
  ): Promise<ActionRunEntity> {
    const run = await this.get(teamId, agentId, id);
    if (!(await this.runs.claimApproval(teamId, id, keyId))) {
      throw Errors.conflict(DECIDED);
    }
    const done = await this.runner.runApproved({
      ...run,
      status: 'running',
      decidedByApiKeyId: keyId,
    });
    return this.writePhase.run(async () => {
      await this.conversations.continueAfterDecision(done);
      return done;
    });
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
      if (!(await this.runs.reject(teamId, id, keyId, reason))) {
        throw Errors.conflict(DECIDED);
      }
      const run = (await this.runs.findOwned(teamId, agentId, id))!;
      await this.conversations.continueAfterDecision(run);
      return run;
    });
  }
}
