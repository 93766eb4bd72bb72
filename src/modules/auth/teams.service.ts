import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { TeamEntity } from './entities/team.entity';

const EVERY_TEAM_BY_NAME = 'SELECT * FROM teams ORDER BY name ASC';

@Injectable()
export class TeamsService {
  constructor(private readonly db: Database) {}

  findByName(name: string): Promise<TeamEntity | null> {
    return this.db.findOne(TeamEntity, { name });
  }

  /** The names of the teams of `ids` that exist, by id. */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    const teams = ids.length > 0 ? await this.db.find(TeamEntity, { id: ids }) : [];
    return new Map(teams.map((team) => [team.id, team.name]));
  }

  /** Every team, by name: the admin CLI's view across teams. */
  list(): Promise<TeamEntity[]> {
    return this.db.entities(TeamEntity, EVERY_TEAM_BY_NAME);
  }

  /** Creates the team; null when the name is taken. */
  async create(name: string): Promise<TeamEntity | null> {
    const team: TeamEntity = { id: newId(), name, createdAt: new Date() };
    try {
      await this.db.insert(TeamEntity, [team]);
      return team;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return null;
      }
      throw error;
    }
  }

  async ensure(name: string): Promise<TeamEntity> {
    const existing = await this.findByName(name);
    if (existing) {
      return existing;
    }
    const created = await this.create(name);
    return created ?? (await this.findByName(name))!;
  }
}
