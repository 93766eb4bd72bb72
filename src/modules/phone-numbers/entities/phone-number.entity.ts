import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BooleanColumn, IdColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';
import { PhoneNumberRequestEntity } from './phone-number-request.entity';

/** A team's phone number, routing inbound calls to at most one of its agents. */
@Entity('phone_numbers')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
// A number exists once in the whole service, whichever team holds it.
@Unique('uq_phone_numbers_e164', ['e164'])
@Unique('uq_phone_numbers_request', ['requestId'])
@Index('ix_phone_numbers_team_created', ['teamId', 'createdAt'])
@Index('ix_phone_numbers_agent', ['agentId'])
export class PhoneNumberEntity extends TeamScopedEntity {
  @Column({ type: 'varchar', length: 16 })
  e164: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  label: string | null;

  /** Set to null by the database when the agent is deleted. */
  @Column({ name: 'agent_id', type: 'varchar', length: 36, nullable: true })
  @ForeignKey('agents', { onDelete: 'SET NULL' })
  agentId: string | null;

  @BooleanColumn('inbound_enabled', true)
  inboundEnabled: boolean;

  /** The provisioning request it fulfilled. */
  @IdColumn('request_id')
  @ForeignKey(() => PhoneNumberRequestEntity, { onDelete: 'CASCADE' })
  requestId: string;
}
