import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BooleanColumn, IdColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';

export const AGENT_STATUSES = ['development', 'live', 'paused'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const PERSONAS = ['professional', 'friendly', 'concise'] as const;
export type Persona = (typeof PERSONAS)[number];

@Entity('agents')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Unique('uq_agents_test_channel_code', ['testChannelCode'])
@Index('ix_agents_team_created', ['teamId', 'createdAt'])
@Index('ix_agents_workflow', ['workflowId'])
export class AgentEntity extends TeamScopedEntity {
  /** A workflow in use cannot be deleted: the service turns the violation into 409. */
  @IdColumn('workflow_id')
  @ForeignKey('workflows', { onDelete: 'RESTRICT' })
  workflowId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  language: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  persona: Persona | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  timezone: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  logo: string | null;

  @Column({ name: 'business_name', type: 'varchar', length: 255, nullable: true })
  businessName: string | null;

  @Column({ name: 'business_address', type: 'text', nullable: true })
  businessAddress: string | null;

  @Column({ name: 'business_email', type: 'varchar', length: 255, nullable: true })
  businessEmail: string | null;

  @Column({ name: 'business_description', type: 'text', nullable: true })
  businessDescription: string | null;

  @Column({ name: 'test_channel_code', type: 'varchar', length: 16 })
  testChannelCode: string;

  @Column({ type: 'varchar', length: 16 })
  status: AgentStatus;

  @Column({ name: 'status_reason', type: 'text', nullable: true })
  statusReason: string | null;

  @Column({ name: 'escalation_email', type: 'varchar', length: 255, nullable: true })
  escalationEmail: string | null;

  /** Whether a hand-off pauses the AI in its conversation (a person takes over). */
  @BooleanColumn('handoff_pauses_ai', true)
  handoffPausesAi: boolean;

  /** Whether an operator's message pauses the AI in its conversation. */
  @BooleanColumn('operator_reply_pauses_ai', true)
  operatorReplyPausesAi: boolean;
}
