import { ForeignKey } from 'typeorm';
import { IdColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';
import { AgentEntity } from './agent.entity';

/** A team's record that belongs to one of its agents, and goes when the agent does. */
export abstract class AgentScopedEntity extends TeamScopedEntity {
  @IdColumn('agent_id')
  @ForeignKey(() => AgentEntity, { onDelete: 'CASCADE' })
  agentId: string;
}
