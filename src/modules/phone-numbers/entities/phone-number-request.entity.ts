import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { TeamScopedEntity } from '@/database/team-scoped.entity';

export const REGIONS = ['us', 'uk', 'eu', 'ng'] as const;
export type Region = (typeof REGIONS)[number];
export const REQUEST_STATUSES = ['pending', 'fulfilled', 'rejected'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A team asking the operators for a phone number; they fulfil or reject it with the admin CLI. */
@Entity('phone_number_requests')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_phone_number_requests_team_created', ['teamId', 'createdAt'])
@Index('ix_phone_number_requests_status_created', ['status', 'createdAt'])
export class PhoneNumberRequestEntity extends TeamScopedEntity {
  @Column({ name: 'business_name', type: 'varchar', length: 255 })
  businessName: string;

  @Column({ name: 'intended_use', type: 'text' })
  intendedUse: string;

  @Column({ type: 'varchar', length: 8 })
  region: Region;

  @Column({ name: 'agent_count', type: 'integer' })
  agentCount: number;

  @Column({ name: 'outbound_minutes', type: 'integer' })
  outboundMinutes: number;

  /** Set to null by the database when the agent is deleted. */
  @Column({ name: 'submitted_by_agent_id', type: 'varchar', length: 36, nullable: true })
  @ForeignKey('agents', { onDelete: 'SET NULL' })
  submittedByAgentId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: RequestStatus;

  /** The number it was fulfilled with. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  e164: string | null;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason: string | null;
}
