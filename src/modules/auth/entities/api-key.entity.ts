import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { TimeColumn } from '@/database/columns';
import { TeamRecordEntity } from '@/database/team-scoped.entity';
import { TeamEntity } from './team.entity';

@Entity('api_keys')
@ForeignKey(() => TeamEntity, ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Unique('uq_api_keys_key_hash', ['keyHash'])
@Index('ix_api_keys_team', ['teamId'])
export class ApiKeyEntity extends TeamRecordEntity {
  /** SHA-256 of the key, hex; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  /** The first characters of the key, so that people can tell their keys apart. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ type: 'simple-json' })
  scopes: string[];

  /** The only agents the key reaches; null: every agent of its team. */
  @Column({ name: 'agent_ids', type: 'simple-json', nullable: true })
  agentIds: string[] | null;

  @TimeColumn('expires_at', { nullable: true })
  expiresAt: Date | null;

  @TimeColumn('revoked_at', { nullable: true })
  revokedAt: Date | null;

  @TimeColumn('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
}
