import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { AgentListQueryDto } from './dto/agent-list-query.dto';
import { AgentEntity } from './entities/agent.entity';

const SORT_COLUMNS = {
  name: 'agent.name',
  status: 'agent.status',
  created_at: 'agent.created_at',
  updated_at: 'agent.updated_at',
};

const OWNED_BY_ID = 'SELECT * FROM agents WHERE team_id = $1 AND id = $2';

@Injectable()
export class AgentsRepository {
  constructor(private readonly db: Database) {}

  findOwned(teamId: string, id: string): Promise<AgentEntity | null> {
    return this.db.entity(AgentEntity, OWNED_BY_ID, [teamId, id]);
  }

  list(teamId: string, query: AgentListQueryDto): Promise<Page<AgentEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(AgentEntity, 'agent')
      .where('agent.team_id = :teamId', { teamId });
    if (query.status) {
      builder.andWhere('agent.status = :status', { status: query.status });
    }
    return paginate(builder, query, {
      searchColumns: ['agent.name', 'agent.description', 'agent.business_name'],
      sortColumns: SORT_COLUMNS,
      defaultSort: '-created_at',
      tieBreaker: 'agent.id',
    });
  }

  countForTeam(teamId: string): Promise<number> {
    return this.db.manager.countBy(AgentEntity, { teamId });
  }

  async insert(agent: AgentEntity): Promise<void> {
    await this.db.write(() => this.db.manager.insert(AgentEntity, agent));
  }

  async update(
    teamId: string,
    id: string,
    changes: QueryDeepPartialEntity<AgentEntity>,
  ): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.update(AgentEntity, { teamId, id }, changes),
    );
    return (result.affected ?? 0) > 0;
  }

  /** Deletes the agent; its channels, knowledge, integrations and actions go with it (cascade). */
  async delete(teamId: string, id: string): Promise<boolean> {
    const result = await this.db.write(() => this.db.manager.delete(AgentEntity, { teamId, id }));
    return (result.affected ?? 0) > 0;
  }
}
