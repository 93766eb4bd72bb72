import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { WorkflowUsers, WorkflowUsersRegistry } from '@/modules/workflows/workflow-users.service';
import { AgentEntity } from './entities/agent.entity';

const OTHER_TEAMS_AGENTS_ON_WORKFLOW =
  'SELECT id, team_id FROM agents WHERE workflow_id = $1 AND team_id <> $2';

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
    const { rows } = await this.db.execute<{ team_id: string }>(
      OTHER_TEAMS_AGENTS_ON_WORKFLOW + this.db.dialect.lock('update'),
      [workflowId, ownerTeamId],
    );
    return [...new Set(rows.map((row) => row.team_id))];
  }

  async move(teamId: string, fromWorkflowId: string, toWorkflowId: string): Promise<void> {
    await this.db.update(
      AgentEntity,
      { teamId, workflowId: fromWorkflowId },
      { workflowId: toWorkflowId, updatedAt: new Date() },
    );
  }
}
