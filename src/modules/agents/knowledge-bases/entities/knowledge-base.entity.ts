import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TeamScopedEntity } from '@/database/team-scoped.entity';

export type KnowledgeBaseType = 'text' | 'url';

@Entity('knowledge_bases')
export class KnowledgeBaseEntity extends TeamScopedEntity {
  @Column({ name: 'agent_id', type: 'varchar', length: 36 })
  agentId: string;

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
}

/** A retrievable slice of a text knowledge base; the reply engine ranks these. */
@Entity('knowledge_passages')
export class KnowledgePassageEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'agent_id', type: 'varchar', length: 36 })
  agentId: string;

  @Column({ name: 'knowledge_base_id', type: 'varchar', length: 36 })
  knowledgeBaseId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  content: string;
}
