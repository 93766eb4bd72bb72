import { Column, Entity, PrimaryColumn } from 'typeorm';

/*
 * The two tables the peer reads, mapped the way a team would map them: its own entity classes,
 * written against the service's schema (the migrations own it; the peer never changes it).
 */

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  @Column({ type: 'simple-json' })
  scopes: string[];

  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;
}

@Entity('workflows')
export class Workflow {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  category: string | null;

  @Column({ type: 'varchar', length: 16 })
  visibility: string;

  @Column({ name: 'system_prompt', type: 'text', nullable: true })
  systemPrompt: string | null;

  @Column({ type: 'simple-json' })
  rules: unknown[];

  @Column({ type: 'simple-json' })
  flows: unknown[];

  @Column({ type: 'simple-json' })
  tags: string[];

  @Column({ type: 'simple-json' })
  integrations: unknown[];

  @Column({ type: 'simple-json' })
  channels: unknown[];

  @Column({ type: 'simple-json' })
  actions: unknown[];

  @Column({ type: 'simple-json', nullable: true })
  guide: unknown;

  @Column({ type: 'simple-json' })
  faq: unknown[];

  @Column({ name: 'setup_steps', type: 'simple-json' })
  setupSteps: unknown[];

  @Column({ name: 'setup_time', type: 'integer', nullable: true })
  setupTime: number | null;

  @Column({ name: 'video_url', type: 'varchar', length: 2048, nullable: true })
  videoUrl: string | null;

  @Column({ name: 'prompt_config', type: 'simple-json', nullable: true })
  promptConfig: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
