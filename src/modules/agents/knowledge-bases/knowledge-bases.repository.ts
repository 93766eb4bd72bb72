import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { KnowledgeBaseEntity, KnowledgePassageEntity } from './knowledge-base.entity';
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

  countForAgent(manager: EntityManager, teamId: string, agentId: string): Promise<number> {
    return manager.countBy(KnowledgeBaseEntity, { teamId, agentId });
  }

  /** Writes the knowledge base and re-slices its text into passages, in the caller's transaction. */
  async save(manager: EntityManager, kb: KnowledgeBaseEntity): Promise<void> {
    await manager.save(KnowledgeBaseEntity, kb);
    await manager.delete(KnowledgePassageEntity, { knowledgeBaseId: kb.id });
    const passages = kb.type === 'text' && kb.content ? toPassages(kb.content) : [];
    if (passages.length > 0) {
      await manager.insert(
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
  }

  async delete(teamId: string, agentId: string, id: string): Promise<boolean> {
    const result = await this.db.transaction((manager) =>
      manager.delete(KnowledgeBaseEntity, { teamId, agentId, id }),
    );
    return (result.affected ?? 0) > 0;
  }
}
