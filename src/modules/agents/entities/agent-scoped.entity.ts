import { IdColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';

/** A team's record that belongs to one of its agents, and goes when the agent does. */
export abstract class AgentScopedEntity extends TeamScopedEntity {
  @IdColumn('agent_id')
  agentId: string;
}
