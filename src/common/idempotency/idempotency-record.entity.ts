import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

export type IdempotencyState = 'in_progress' | 'done';

@Entity('idempotency_keys')
// Platform code names the teams' table rather than importing the auth module's entity.
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Unique('uq_idempotency_keys_team_key', ['teamId', 'key'])
@Index('ix_idempotency_keys_expires', ['expiresAt'])
export class IdempotencyRecordEntity extends TeamRecordEntity {
  @Column({ name: 'idempotency_key', type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 over method, path and canonical body. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 16 })
  state: IdempotencyState;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  /** Until when the running request holds the key (null once done); it renews this lease. */
  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  /** Proves the current holder's claim: a takeover changes it, fencing off the previous holder. */
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;

  @TimeColumn('expires_at')
  expiresAt: Date;
}
