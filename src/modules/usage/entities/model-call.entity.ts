import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BooleanColumn, IdColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

/**
 * One call to the language model, ok or failed, with the tokens the provider reported for it.
 * Written after the call returns, in a statement of its own; `created_at` is when it returned.
 */
@Entity('model_calls')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_model_calls_team_created', ['teamId', 'createdAt'])
@Index('ix_model_calls_conversation', ['conversationId'])
export class ModelCallEntity extends TeamRecordEntity {
  @IdColumn('agent_id')
  agentId: string;

  @IdColumn('conversation_id')
  @ForeignKey('conversations', { onDelete: 'CASCADE' })
  conversationId: string;

  @Column({ type: 'varchar', length: 255 })
  model: string;

  @Column({ name: 'prompt_tokens', type: 'integer' })
  promptTokens: number;

  @Column({ name: 'completion_tokens', type: 'integer' })
  completionTokens: number;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs: number;

  @BooleanColumn('ok', true)
  ok: boolean;
}
