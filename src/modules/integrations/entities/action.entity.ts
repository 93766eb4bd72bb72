import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BooleanColumn, IdColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';
import { IntegrationEntity } from './integration.entity';

/** Something the agent can do through one of its integrations (a connector action or a tool). */
@Entity('actions')
@Unique('uq_actions_integration_name', ['integrationId', 'actionName'])
@Index('ix_actions_agent', ['agentId', 'createdAt'])
export class ActionEntity extends AgentScopedEntity {
  @IdColumn('integration_id')
  @ForeignKey(() => IntegrationEntity, { onDelete: 'CASCADE' })
  integrationId: string;

  @Column({ name: 'action_name', type: 'varchar', length: 128 })
  actionName: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  category: string | null;

  @BooleanColumn('is_enabled', true)
  isEnabled: boolean;

  /** False once the integration stopped offering it (an MCP tool gone from its server). */
  @BooleanColumn('is_available', true)
  isAvailable: boolean;

  @BooleanColumn('require_human_approval', false)
  requireHumanApproval: boolean;

  @Column({ type: 'simple-json' })
  config: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  secrets: string | null;
}
