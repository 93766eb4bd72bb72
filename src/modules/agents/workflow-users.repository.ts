import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { WorkflowUsers, WorkflowUsersRegistry } from '@/modules/workflows/workflow-users.service';
import { AgentEntity } from './entities/agent.entity';

/**
 * The agents of other teams that run on a team's public workflow, as the workflows ask for them
 * when they move those agents off a workflow their team is about to lose.
 */
@Injectable()
export class WorkflowUsersRepository implements WorkflowUsers {
  constructor(
    private readonly db: Database,
    registry: WorkflowUsersRegistry,
  ) {
    registry.register(this);
  }

  /**
   * The teams, other than the owner, whose agents run on the workflow. Those agents stay locked
   * until the transaction ends, so none of them is deleted or moved elsewhere meanwhile.
   */
  async teamsOn(workflowId: string, ownerTeamId: string): Promise<string[]> {
    const agents = await this.db
      .forUpdate(
        this.db.manager
          .createQueryBuilder(AgentEntity, 'agent')
          .select(['agent.id', 'agent.teamId'])
          .where('agent.workflow_id = :workflowId', { workflowId })
          .andWhere('agent.team_id <> :ownerTeamId', { ownerTeamId }),
      )
      .getMany();
    return [...new Set(agents.map((agent) => agent.teamId))];
  }

  async move(teamId: string, fromWorkflowId: string, toWorkflowId: string): Promise<void> {
    await this.db.write(() =>
      this.db.manager.update(
        AgentEntity,
        { teamId, workflowId: fromWorkflowId },
        { workflowId: toWorkflowId, updatedAt: new Date() },
      ),
    );
  }
}
