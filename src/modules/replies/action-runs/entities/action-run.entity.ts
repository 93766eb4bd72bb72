import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';

export const ACTION_RUN_STATUSES = [
  'pending_approval',
  'running',
  'succeeded',
  'failed',
  'rejected',
] as const;
export type ActionRunStatus = (typeof ACTION_RUN_STATUSES)[number];

/** One time an agent ran (or asked to run) one of its actions during a reply. */
@Entity('action_runs')
@Index('ix_action_runs_agent_created', ['agentId', 'createdAt'])
@Index('ix_action_runs_message', ['messageId'])
@Index('ix_action_runs_status', ['status'])
export class ActionRunEntity extends AgentScopedEntity {
  @IdColumn('conversation_id')
  @ForeignKey('conversations', { onDelete: 'CASCADE' })
  conversationId: string;

  /** The customer's message whose reply ran the action. */
  @IdColumn('message_id')
  messageId: string;

  @IdColumn('action_id')
  actionId: string;

  @Column({ name: 'action_name', type: 'varchar', length: 128 })
  actionName: string;

  @Column({ type: 'simple-json' })
  arguments: Record<string, unknown>;

  @Column({ type: 'varchar', length: 32 })
  status: ActionRunStatus;

  @Column({ type: 'simple-json', nullable: true })
  result: unknown;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** What the customer is told of its outcome, from its action's texts; null: the built-in line. */
  @Column({ name: 'customer_text', type: 'text', nullable: true })
  customerText: string | null;

  @Column({ name: 'decided_by_api_key_id', type: 'varchar', length: 36, nullable: true })
  decidedByApiKeyId: string | null;

  /**
   * While `running`: until when the process calling it holds it (renewed during the call). Past
   * it, that process is gone and any instance settles the run as interrupted.
   */
  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  /** The claim of the process settling it while `running`: only that one may write its outcome. */
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;
}
