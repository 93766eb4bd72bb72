import { Column, Entity, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'in_progress' | 'done';

@Entity('idempotency_keys')
export class IdempotencyRecordEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

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

  @Column({ name: 'locked_at', type: Date })
  lockedAt: Date;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
