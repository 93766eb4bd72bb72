import { Injectable } from '@nestjs/common';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import { AgentListQueryDto } from './dto/agent-list-query.dto';
import { AgentEntity } from './entities/agent.entity';

const OWNED_BY_ID = 'SELECT * FROM agents WHERE team_id = $1 AND id = $2';

export const AGENT_LIST: ListTable = {
  from: 'agents agent',
  columns: 'agent.*',
  searchColumns: ['agent.name', 'agent.description', 'agent.business_name'],
  sortColumns: {
    name: 'agent.name',
    status: 'agent.status',
    created_at: 'agent.created_at',
    updated_at: 'agent.updated_at',
  },
  defaultSort: '-created_at',
  tieBreaker: 'agent.id',
};

@Injectable()
export class AgentsRepository {
  private readonly lists: ListPages<AgentEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, AgentEntity, AGENT_LIST);
  }

  findOwned(teamId: string, id: string): Promise<AgentEntity | null> {
    return this.db.entity(AgentEntity, OWNED_BY_ID, [teamId, id]);
  }

  /**
   * The agent whose test code is `code`, of whichever team: the code is what a person on the
   * shared test number proves they were given (codes are unique across the installation).
   */
  findByTestChannelCode(code: string): Promise<AgentEntity | null> {
    return this.db.findOne(AgentEntity, { testChannelCode: code });
  }

  /** The team's agents; only those of `agentIds` when given. */
  async list(
    teamId: string,
    query: AgentListQueryDto,
    agentIds: readonly string[] | null = null,
  ): Promise<Page<AgentEntity>> {
    const params = new SqlParams();
    const conditions = [`agent.team_id = ${params.add(teamId)}`];
    if (query.status) {
      conditions.push(`agent.status = ${params.add(query.status)}`);
    }
    if (agentIds) {
      conditions.push(agentIds.length > 0 ? `agent.id IN (${params.list(agentIds)})` : '1 = 0');
    }
    const page = await this.lists.page(
      { where: conditions.join(' AND '), params: params.values },
      query,
    );
    return Page.from(page, query);
  }

  countForTeam(teamId: string): Promise<number> {
    return this.db.count(AgentEntity, { teamId });
  }

  async insert(agent: AgentEntity): Promise<void> {
    await this.db.insert(AgentEntity, [agent]);
  }

  async update(teamId: string, id: string, changes: Changes<AgentEntity>): Promise<boolean> {
    return (await this.db.update(AgentEntity, { teamId, id }, changes)) > 0;
  }

  /** Deletes the agent; its channels, knowledge, integrations and actions go with it (cascade). */
  async delete(teamId: string, id: string): Promise<boolean> {
    return (await this.db.delete(AgentEntity, { teamId, id })) > 0;
  }
}
