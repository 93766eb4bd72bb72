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
    return this.db.find(
      KnowledgeBaseEntity,
      { teamId, agentId },
      { orderBy: { createdAt: 'ASC', id: 'ASC' } },
    );
  }

  /** What the agent's profile shows of each item, in the order `listForAgent` gives. */
  async summariesForAgent(teamId: string, agentId: string): Promise<KnowledgeBaseSummary[]> {
    return this.db.entities(KnowledgeBaseEntity, SUMMARIES_FOR_AGENT, [teamId, agentId]);
  }

  findOwned(teamId: string, agentId: string, id: string): Promise<KnowledgeBaseEntity | null> {
    return this.db.findOne(KnowledgeBaseEntity, { teamId, agentId, id });
  }

  countForAgent(teamId: string, agentId: string): Promise<number> {
    return this.db.count(KnowledgeBaseEntity, { teamId, agentId });
  }

  /**
   * Writes a new item and its passages in one transaction: a text item's from its content, a URL
   * item's none until its page is fetched.
   */
  insert(kb: KnowledgeBaseEntity): Promise<void> {
    return this.db.transaction(async () => {
      await this.db.insert(KnowledgeBaseEntity, [kb]);
      await this.passages.replaceForItem(kb, kb.type === 'text' ? kb.content : null);
    });
  }

  /** Writes the item whole and, when its text is new (`reindex`), its passages, in one transaction. */
  update(kb: KnowledgeBaseEntity, reindex: boolean): Promise<void> {
    return this.db.transaction(async () => {
      const { id, ...changes } = kb;
      await this.db.update(KnowledgeBaseEntity, { id }, changes);
      if (reindex) {
        await this.passages.replaceForItem(kb, kb.type === 'text' ? kb.content : null);
      }
    });
  }

  async delete(teamId: string, agentId: string, id: string): Promise<boolean> {
    return (await this.db.delete(KnowledgeBaseEntity, { teamId, agentId, id })) > 0;
  }
}
