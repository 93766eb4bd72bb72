import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { TeamModelSettingsEntity } from './entities/team-model-settings.entity';

export type ModelSettingsFields = Pick<
  TeamModelSettingsEntity,
  'baseUrl' | 'apiKey' | 'model' | 'allowedModels' | 'monthlyTokenBudget'
>;

/** A team's one row of model settings. */
@Injectable()
export class ModelSettingsRepository {
  constructor(private readonly db: Database) {}

  find(teamId: string): Promise<TeamModelSettingsEntity | null> {
    return this.db.findOne(TeamModelSettingsEntity, { teamId });
  }

  /** Writes the team's settings whole: a first write inserts, a concurrent one cannot add a row. */
  async save(row: TeamModelSettingsEntity): Promise<void> {
    const inserted = await this.db.insert(TeamModelSettingsEntity, [row], { orIgnore: true });
    if (inserted === 0) {
      const fields: ModelSettingsFields & { updatedAt: Date } = {
        baseUrl: row.baseUrl,
        apiKey: row.apiKey,
        model: row.model,
        allowedModels: row.allowedModels,
        monthlyTokenBudget: row.monthlyTokenBudget,
        updatedAt: row.updatedAt,
      };
      await this.db.update(TeamModelSettingsEntity, { teamId: row.teamId }, fields);
    }
  }

  async delete(teamId: string): Promise<void> {
    await this.db.delete(TeamModelSettingsEntity, { teamId });
  }
}
