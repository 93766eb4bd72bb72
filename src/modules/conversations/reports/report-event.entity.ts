import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BooleanColumn, IdColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';
import { ConversationEntity } from '../entities/conversation.entity';

export const REPORT_EVENT_KINDS = ['handed_off', 'resolved'] as const;
export type ReportEventKind = (typeof REPORT_EVENT_KINDS)[number];

/**
 * A moment the reports count that the conversation row forgets: it keeps only its latest hand-off
 * and its current status. Written in the transaction of the change; `created_at` is the moment.
 */
@Entity('report_events')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_report_events_team_kind_created', ['teamId', 'kind', 'createdAt'])
@Index('ix_report_events_conversation', ['conversationId'])
export class ReportEventEntity extends TeamRecordEntity {
  @IdColumn('agent_id')
  agentId: string;

  @IdColumn('conversation_id')
  @ForeignKey(() => ConversationEntity, { onDelete: 'CASCADE' })
  conversationId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: ReportEventKind;

  /** For a resolution: the conversation had been handed to a person before it. */
  @BooleanColumn('after_handoff', false)
  afterHandoff: boolean;
}
