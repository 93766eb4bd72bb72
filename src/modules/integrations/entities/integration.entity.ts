import { Column, Entity, Index } from 'typeorm';
import { BooleanColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';

export const INTEGRATION_FAMILIES = ['bimpeai', 'custom_api', 'mcp_server', 'pipedream'] as const;
export type IntegrationFamily = (typeof INTEGRATION_FAMILIES)[number];
export type IntegrationStatus = 'connected' | 'pending' | 'error';

@Entity('integrations')
@Index('ix_integrations_agent_family', ['agentId', 'family', 'createdAt'])
// One built-in connector of each type per agent.
@Index('uq_integrations_agent_built_in', ['agentId', 'type'], {
  unique: true,
  where: "family = 'bimpeai'",
})
export class IntegrationEntity extends AgentScopedEntity {
  @Column({ type: 'varchar', length: 32 })
  family: IntegrationFamily;

  /** The connector (`stripe`, …) for built-ins; the family name for the others. */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: IntegrationStatus;

  @BooleanColumn('is_connected', false)
  isConnected: boolean;

  /** Settings that are not secret, returned as they are. */
  @Column({ type: 'simple-json' })
  config: Record<string, unknown>;

  /** Secret settings as one sealed JSON object (SecretBox); never returned. */
  @Column({ type: 'text', nullable: true })
  secrets: string | null;
}

/** What an agent's profile shows of an integration. */
export type IntegrationSummary = Pick<
  IntegrationEntity,
  'id' | 'type' | 'name' | 'status' | 'isConnected'
>;
