import { Column, Entity } from 'typeorm';
import { IdColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';

/** A team's phone number, routing inbound calls to at most one of its agents. */
@Entity('phone_numbers')
export class PhoneNumberEntity extends TeamScopedEntity {
  @Column({ type: 'varchar', length: 16, unique: true })
  e164: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  label: string | null;

  /** Set to null by the database when the agent is deleted. */
  @Column({ name: 'agent_id', type: 'varchar', length: 36, nullable: true })
  agentId: string | null;

  @Column({ name: 'inbound_enabled', type: 'boolean' })
  inboundEnabled: boolean;

  /** The provisioning request it fulfilled. */
  @IdColumn('request_id')
  requestId: string;
}
