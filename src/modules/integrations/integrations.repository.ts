import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import {
  IntegrationEntity,
  IntegrationFamily,
  IntegrationSummary,
} from './entities/integration.entity';

const SUMMARIES_FOR_AGENT =
  'SELECT id, type, name, status, is_connected FROM integrations ' +
  'WHERE team_id = $1 AND agent_id = $2 ORDER BY created_at ASC, id ASC';

@Injectable()
export class IntegrationsRepository {
  constructor(private readonly db: Database) {}

  listForAgent(
    teamId: string,
    agentId: string,
    family?: IntegrationFamily,
  ): Promise<IntegrationEntity[]> {
    return this.db.find(
      IntegrationEntity,
      { teamId, agentId, family },
      { orderBy: { createdAt: 'ASC', id: 'ASC' } },
    );
  }

  /** What the agent's profile shows of each integration, in the order `listForAgent` gives. */
  summariesForAgent(teamId: string, agentId: string): Promise<IntegrationSummary[]> {
    return this.db.entities(IntegrationEntity, SUMMARIES_FOR_AGENT, [teamId, agentId]);
  }

  findOwned(
    teamId: string,
    agentId: string,
    id: string,
    family: IntegrationFamily | undefined,
  ): Promise<IntegrationEntity | null> {
    return this.db.findOne(IntegrationEntity, { teamId, agentId, id, family });
  }

  findForAgent(teamId: string, agentId: string, id: string): Promise<IntegrationEntity | null> {
    return this.db.findOne(IntegrationEntity, { teamId, agentId, id });
  }

  findByType(teamId: string, agentId: string, type: string): Promise<IntegrationEntity | null> {
    return this.db.findOne(IntegrationEntity, { teamId, agentId, family: 'bimpeai', type });
  }

  countForAgent(teamId: string, agentId: string): Promise<number> {
    return this.db.count(IntegrationEntity, { teamId, agentId });
  }

  async insert(integration: IntegrationEntity): Promise<void> {
    await this.db.insert(IntegrationEntity, [integration]);
  }

  async update(teamId: string, id: string, changes: Partial<IntegrationEntity>): Promise<void> {
    await this.db.update(IntegrationEntity, { teamId, id }, changes);
  }

  /** Deletes the integration and, by cascade, its actions. */
  async delete(
    teamId: string,
    agentId: string,
    id: string,
    family: IntegrationFamily,
  ): Promise<boolean> {
    return (await this.db.delete(IntegrationEntity, { teamId, agentId, id, family })) > 0;
  }
}
