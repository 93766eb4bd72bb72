import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { KnowledgeBaseEntity, KnowledgePassageEntity } from './entities/knowledge-base.entity';
import { toPassages } from './passages';

@Injectable()
export class KnowledgeBasesRepository {
  constructor(private readonly db: Database) {}

  listForAgent(teamId: string, agentId: string): Promise<KnowledgeBaseEntity[]> {
    return this.db.manager.find(KnowledgeBaseEntity, {
      where: { teamId, agentId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findOwned(teamId: string, agentId: string, id: string): Promise<KnowledgeBaseEntity | null> {
    return this.db.manager.findOneBy(KnowledgeBaseEntity, { teamId, agentId, id });
  }

  /** Changes whenever the agent's knowledge bases do (one added, removed or updated). */
  async passagesVersion(teamId: string, agentId: string): Promise<string> {
    const stamp = (await this.db.manager
      .createQueryBuilder(KnowledgeBaseEntity, 'kb')
      .select('COUNT(*)', 'count')
      .addSelect('MAX(kb.updated_at)', 'newest')
      .where('kb.team_id = :teamId AND kb.agent_id = :agentId', { teamId, agentId })
      .getRawOne<{ count: string | number; newest: string | Date | null }>())!;
    return `${stamp.count}:${String(stamp.newest)}`;
  }

  async passages(teamId: string, agentId: string): Promise<string[]> {
    const rows = await this.db.manager
      .createQueryBuilder(KnowledgePassageEntity, 'passage')
      .innerJoin(KnowledgeBaseEntity, 'kb', 'kb.id = passage.knowledge_base_id')
      .where('kb.team_id = :teamId AND passage.agent_id = :agentId', { teamId, agentId })
      .orderBy('passage.knowledgeBaseId', 'ASC')
      .addOrderBy('passage.position', 'ASC')
      .getMany();
    return rows.map((row) => row.content);
  }

  countForAgent(teamId: string, agentId: string): Promise<number> {
    return this.db.manager.countBy(KnowledgeBaseEntity, { teamId, agentId });
  }

  /** Writes the knowledge base and re-slices its text into passages, in one transaction. */
  save(kb: KnowledgeBaseEntity): Promise<void> {
    return this.db.transaction(async () => {
      await this.db.manager.save(KnowledgeBaseEntity, kb);
      await this.db.manager.delete(KnowledgePassageEntity, { knowledgeBaseId: kb.id });
      const passages = kb.type === 'text' && kb.content ? toPassages(kb.content) : [];
      if (passages.length > 0) {
        await this.db.manager.insert(
          KnowledgePassageEntity,
          passages.map((content, position) => ({
            id: newId(),
            agentId: kb.agentId,
            knowledgeBaseId: kb.id,
            position,
            content,
          })),
        );
      }
    });
  }

  async delete(teamId: string, agentId: string, id: string): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.delete(KnowledgeBaseEntity, { teamId, agentId, id }),
    );
    return (result.affected ?? 0) > 0;
  }
}
