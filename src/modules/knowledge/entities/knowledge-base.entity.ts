import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { PrimaryIdColumn, TimeColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';

export type KnowledgeBaseType = 'text' | 'url';
export type KnowledgeBaseStatus = 'pending' | 'ready' | 'failed';
export type PassageSource = 'kb' | 'url' | 'faq';

@Entity('knowledge_bases')
@Index('ix_knowledge_bases_agent', ['agentId', 'createdAt'])
@Index('ix_knowledge_bases_fetch', ['type', 'status', 'leaseUntil'])
@Index('ix_knowledge_bases_fetched', ['type', 'fetchedAt'])
export class KnowledgeBaseEntity extends AgentScopedEntity {
  @Column({ type: 'varchar', length: 16 })
  type: KnowledgeBaseType;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  @Column({ type: 'text', nullable: true })
  content: string | null;

  @Column({ type: 'varchar', length: 16, default: 'ready' })
  status: KnowledgeBaseStatus;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @TimeColumn('fetched_at', { nullable: true })
  fetchedAt: Date | null;

  /** Until when a fetch worker holds the item; a worker that died lets it run out. */
  @TimeColumn('lease_until', { nullable: true })
  leaseUntil: Date | null;

  /** The claim of the fetch under way: a result is stored only while it is still this one. */
  @Column({ name: 'fetch_token', type: 'varchar', length: 36, nullable: true })
  fetchToken: string | null;

  /** Fetches claimed since the item last settled: counts the ones a crash interrupted. */
  @Column({ name: 'fetch_attempts', type: 'integer', default: 0 })
  fetchAttempts: number;
}

/** What an agent's profile shows of an item. */
export type KnowledgeBaseSummary = Pick<
  KnowledgeBaseEntity,
  'id' | 'type' | 'name' | 'description'
>;

/**
 * A retrievable slice of knowledge: of an item (`kb` text, fetched `url`) owned by an agent, or a
 * FAQ entry owned by a workflow (`title` the question, `content` the answer). The full-text index
 * (SQLite FTS5 table `knowledge_fts`, PostgreSQL column `search`) is kept beside it by the
 * migration and the passage index adapters (`index/`). The table differs between the two (SQLite's rowid `seq`
 * for FTS5, PostgreSQL's `search`), so no entity can describe it: TypeORM's schema diff (and
 * `migration:generate`) leaves it alone.
 */
@Entity('knowledge_passages', { synchronize: false })
export class KnowledgePassageEntity {
  @PrimaryIdColumn()
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36, nullable: true })
  teamId: string | null;

  @Column({ name: 'agent_id', type: 'varchar', length: 36, nullable: true })
  agentId: string | null;

  @Column({ name: 'knowledge_base_id', type: 'varchar', length: 36, nullable: true })
  knowledgeBaseId: string | null;

  @Column({ name: 'workflow_id', type: 'varchar', length: 36, nullable: true })
  workflowId: string | null;

  @Column({ type: 'varchar', length: 8 })
  source: PassageSource;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  content: string;
}

/** Which version of a workflow's FAQ its passages hold (a digest of the entries). */
@Entity('knowledge_faq_versions')
export class KnowledgeFaqVersionEntity {
  @PrimaryColumn({ name: 'workflow_id', type: 'varchar', length: 36 })
  @ForeignKey('workflows', { onDelete: 'CASCADE' })
  workflowId: string;

  @Column({ type: 'varchar', length: 64 })
  digest: string;
}
