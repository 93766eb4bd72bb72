import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { AgentEntity } from '@/modules/agents/entities/agent.entity';

/**
 * The agents of other teams that run on a team's public workflow: the one place the workflows
 * module touches agents, to move them off a workflow their team is about to lose.
 */
@Injectable()
export class ForeignAgentsRepository {
  constructor(private readonly db: Database) {}

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
