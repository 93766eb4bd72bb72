import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { ActionEntity } from '../entities/action.entity';

const IN_ORDER = { createdAt: 'ASC', id: 'ASC' } as const;

@Injectable()
export class ActionsRepository {
  constructor(private readonly db: Database) {}

  listForAgent(teamId: string, agentId: string): Promise<ActionEntity[]> {
    return this.db.find(ActionEntity, { teamId, agentId }, { orderBy: IN_ORDER });
  }

  findForAgent(teamId: string, agentId: string, id: string): Promise<ActionEntity | null> {
    return this.db.findOne(ActionEntity, { teamId, agentId, id });
  }

  listForIntegration(teamId: string, integrationId: string): Promise<ActionEntity[]> {
    return this.db.find(ActionEntity, { teamId, integrationId }, { orderBy: IN_ORDER });
  }

  countForIntegration(teamId: string, integrationId: string): Promise<number> {
    return this.db.count(ActionEntity, { teamId, integrationId });
  }

  async insert(actions: ActionEntity[]): Promise<void> {
    await this.db.insert(ActionEntity, actions);
  }

  async update(teamId: string, id: string, changes: Partial<ActionEntity>): Promise<void> {
    await this.db.update(ActionEntity, { teamId, id }, changes);
  }

  async delete(teamId: string, integrationId: string, id: string): Promise<boolean> {
    return (await this.db.delete(ActionEntity, { teamId, integrationId, id })) > 0;
  }

  /** Enables or disables those of `ids` that are the agent's; returns how many those were. */
  async setEnabled(
    teamId: string,
    agentId: string,
    ids: string[],
    enabled: boolean,
  ): Promise<number> {
    if (ids.length === 0) {
      return 0;
    }
    return this.db.update(
      ActionEntity,
      { teamId, agentId, id: ids },
      { isEnabled: enabled, updatedAt: new Date() },
    );
  }
}
