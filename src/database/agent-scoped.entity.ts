import { ForeignKey } from 'typeorm';
import { IdColumn } from './columns';
import { TeamScopedEntity } from './team-scoped.entity';

/** A team's record that belongs to one of its agents, and goes when the agent does. */
export abstract class AgentScopedEntity extends TeamScopedEntity {
  @IdColumn('agent_id')
  @ForeignKey('agents', { onDelete: 'CASCADE' })
  agentId: string;
}
