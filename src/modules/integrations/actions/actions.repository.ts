import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
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

  findForAgent(teamId: string, agentId: string, id: string): Promise<ActionEntity | null> {
    return this.db.manager.findOneBy(ActionEntity, { teamId, agentId, id });
  }

  listForIntegration(teamId: string, integrationId: string): Promise<ActionEntity[]> {
    return this.db.manager.find(ActionEntity, {
      where: { teamId, integrationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  countForIntegration(teamId: string, integrationId: string): Promise<number> {
    return this.db.manager.countBy(ActionEntity, { teamId, integrationId });
  }

  async insert(actions: ActionEntity[]): Promise<void> {
    if (actions.length > 0) {
      await this.db.write(() =>
        this.db.manager.insert(ActionEntity, actions as QueryDeepPartialEntity<ActionEntity>[]),
      );
    }
  }

  async update(teamId: string, id: string, changes: Partial<ActionEntity>): Promise<void> {
    await this.db.write(() =>
      this.db.manager.update(
        ActionEntity,
        { teamId, id },
        changes as QueryDeepPartialEntity<ActionEntity>,
      ),
    );
  }

  async delete(teamId: string, integrationId: string, id: string): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.delete(ActionEntity, { teamId, integrationId, id }),
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
    const result = await this.db.write(() =>
      this.db.manager.update(
        ActionEntity,
        { teamId, agentId, id: In(ids) },
        { isEnabled: enabled, updatedAt: new Date() },
      ),
    );
    return result.affected ?? 0;
  }
}
