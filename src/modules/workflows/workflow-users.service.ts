import { Injectable } from '@nestjs/common';

/** What runs on workflows: the agents, which sit above the workflows and register here. */
export interface WorkflowUsers {
  /**
   * The teams, other than the owner, with something on the workflow, held (locked) until the
   * transaction ends so that none of it moves elsewhere meanwhile.
   */
  teamsOn(workflowId: string, ownerTeamId: string): Promise<string[]>;
  /** Moves what `teamId` runs on one workflow onto another, in the caller's transaction. */
  move(teamId: string, fromWorkflowId: string, toWorkflowId: string): Promise<void>;
}

/**
 * Where the workflows find who runs on a workflow they are about to withdraw from other teams
 * (made private or deleted). The agents module registers itself at start.
 */
@Injectable()
export class WorkflowUsersRegistry {
  private users: WorkflowUsers | null = null;

  register(users: WorkflowUsers): void {
    this.users = users;
  }

  async teamsOn(workflowId: string, ownerTeamId: string): Promise<string[]> {
    return this.users ? this.users.teamsOn(workflowId, ownerTeamId) : [];
  }

  async move(teamId: string, fromWorkflowId: string, toWorkflowId: string): Promise<void> {
    await this.users?.move(teamId, fromWorkflowId, toWorkflowId);
  }
}
