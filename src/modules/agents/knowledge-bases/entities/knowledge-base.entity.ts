import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/modules/agents/entities/agent-scoped.entity';

export type KnowledgeBaseType = 'text' | 'url';

@Entity('knowledge_bases')
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
}

/** A retrievable slice of a text knowledge base; the reply engine ranks these. */
@Entity('knowledge_passages')
export class KnowledgePassageEntity {
  @PrimaryIdColumn()
  id: string;

  @IdColumn('agent_id')
  agentId: string;

  @IdColumn('knowledge_base_id')
  knowledgeBaseId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  content: string;
}
