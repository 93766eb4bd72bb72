import { Column, Entity } from 'typeorm';
import { TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';

@Entity('api_keys')
export class ApiKeyEntity extends TeamRecordEntity {
  /** SHA-256 of the key, hex; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** The first characters of the key, so that people can tell their keys apart. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ type: 'simple-json' })
  scopes: string[];

  @TimeColumn('expires_at', { nullable: true })
  expiresAt: Date | null;

  @TimeColumn('revoked_at', { nullable: true })
  revokedAt: Date | null;

  @TimeColumn('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
}
