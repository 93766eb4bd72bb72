import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Database } from '@/database/database.service';
import { ActionEntity } from '../entities/action.entity';

@Injectable()
export class ActionsRepository {
  constructor(private readonly db: Database) {}

  listForAgent(teamId: string, agentId: string): Promise<ActionEntity[]> {
    return this.db.manager.find(ActionEntity, {
      where: { teamId, agentId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  listForIntegration(
    teamId: string,
    integrationId: string,
    manager = this.db.manager,
  ): Promise<ActionEntity[]> {
    return manager.find(ActionEntity, {
      where: { teamId, integrationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  countForIntegration(manager: EntityManager, integrationId: string): Promise<number> {
    return manager.countBy(ActionEntity, { integrationId });
  }

  async insert(manager: EntityManager, actions: ActionEntity[]): Promise<void> {
    if (actions.length > 0) {
      await manager.insert(ActionEntity, actions as QueryDeepPartialEntity<ActionEntity>[]);
    }
  }

  async update(manager: EntityManager, id: string, changes: Partial<ActionEntity>): Promise<void> {
    await manager.update(ActionEntity, { id }, changes as QueryDeepPartialEntity<ActionEntity>);
  }

  async delete(teamId: string, integrationId: string, id: string): Promise<boolean> {
    const result = await this.db.transaction((manager) =>
      manager.delete(ActionEntity, { teamId, integrationId, id }),
    );
    return (result.affected ?? 0) > 0;
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
    const result = await this.db.transaction((manager) =>
      manager.update(
        ActionEntity,
        { teamId, agentId, id: In(ids) },
        { isEnabled: enabled, updatedAt: new Date() },
      ),
    );
    return result.affected ?? 0;
  }
}
