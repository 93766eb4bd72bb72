import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { KnowledgeBaseEntity, KnowledgeBaseSummary } from './entities/knowledge-base.entity';
import { PassagesRepository } from './index/passages.repository';

const SUMMARIES_FOR_AGENT =
  'SELECT id, type, name, description FROM knowledge_bases WHERE team_id = $1 AND agent_id = $2 ' +
  'ORDER BY created_at ASC, id ASC';

@Injectable()
export class KnowledgeBasesRepository {
  constructor(
    private readonly db: Database,
    private readonly passages: PassagesRepository,
  ) {}

  listForAgent(teamId: string, agentId: string): Promise<KnowledgeBaseEntity[]> {
    return this.db.manager.find(KnowledgeBaseEntity, {
      where: { teamId, agentId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** What the agent's profile shows of each item, in the order `listForAgent` gives. */
  async summariesForAgent(teamId: string, agentId: string): Promise<KnowledgeBaseSummary[]> {
    return this.db.entities(KnowledgeBaseEntity, SUMMARIES_FOR_AGENT, [teamId, agentId]);
  }

  findOwned(teamId: string, agentId: string, id: string): Promise<KnowledgeBaseEntity | null> {
    return this.db.manager.findOneBy(KnowledgeBaseEntity, { teamId, agentId, id });
  }

  countForAgent(teamId: string, agentId: string): Promise<number> {
    return this.db.manager.countBy(KnowledgeBaseEntity, { teamId, agentId });
  }

  /**
   * Writes the item and, when its text is new (`reindex`), its passages, in one transaction: a
   * text item's from its content, a URL item's none until its page is fetched.
   */
  save(kb: KnowledgeBaseEntity, reindex: boolean): Promise<void> {
    return this.db.transaction(async () => {
      await this.db.manager.save(KnowledgeBaseEntity, kb);
      if (reindex) {
        await this.passages.replaceForItem(kb, kb.type === 'text' ? kb.content : null);
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
