import { Column, Entity } from 'typeorm';
import { IdColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/modules/agents/entities/agent-scoped.entity';

/** Something the agent can do through one of its integrations (a connector action or a tool). */
@Entity('actions')
export class ActionEntity extends AgentScopedEntity {
  @IdColumn('integration_id')
  integrationId: string;

  @Column({ name: 'action_name', type: 'varchar', length: 128 })
  actionName: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  category: string | null;

  @Column({ name: 'is_enabled', type: 'boolean' })
  isEnabled: boolean;

  /** False once the integration stopped offering it (an MCP tool gone from its server). */
  @Column({ name: 'is_available', type: 'boolean' })
  isAvailable: boolean;

  @Column({ name: 'require_human_approval', type: 'boolean' })
  requireHumanApproval: boolean;

  @Column({ type: 'simple-json' })
  config: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  secrets: string | null;
}
