import { Injectable } from '@nestjs/common';
import { KnowledgeBasesService } from '@/modules/agents/knowledge-bases/knowledge-bases.service';
import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { Bm25Index } from './bm25';

/**
 * A passage answers only if it contains at least half of the question's significant words: BM25
 * ranks, but its scores do not compare across knowledge bases of different sizes.
 */
function isRelevant(matchedTerms: number, queryTerms: number): boolean {
  return queryTerms > 0 && matchedTerms >= Math.ceil(queryTerms / 2);
}
const CACHED_AGENTS = 200;

interface AgentIndex {
  version: string;
  passages: string[];
  index: Bm25Index;
}

export type KnowledgeSource = 'kb' | 'faq' | 'url';

export interface FoundPassage {
  text: string;
  score: number;
  source: KnowledgeSource;
}

/** Whose knowledge to search: the agent's items and its workflow's FAQ. */
export interface KnowledgeOwner {
  agent: Pick<AgentEntity, 'teamId' | 'id'>;
  workflow: Pick<WorkflowEntity, 'id' | 'faq'> | null;
}

/**
 * Ranks an agent's text knowledge passages for a question. Each agent's index is kept in memory
 * and rebuilt when its knowledge bases change (count or newest update), on any instance.
 */
@Injectable()
export class KnowledgeSearch {
  private readonly indexes = new Map<string, AgentIndex>();

  constructor(private readonly knowledgeBases: KnowledgeBasesService) {}

  /** The passages a model should read for the question, best first. */
  async topPassages(
    { agent }: KnowledgeOwner,
    question: string,
    limit: number,
  ): Promise<FoundPassage[]> {
    const index = await this.indexFor(agent.teamId, agent.id);
    return index.index
      .search(question, limit)
      .filter((hit) => isRelevant(hit.matchedTerms, hit.queryTerms))
      .map((hit) => ({ text: index.passages[hit.index], score: hit.score, source: 'kb' }));
  }

  /** The one passage that answers the question on its own, or null (then a person should). */
  async bestAnswer(owner: KnowledgeOwner, question: string): Promise<FoundPassage | null> {
    const [best] = await this.topPassages(owner, question, 1);
    return best ?? null;
  }

  private async indexFor(teamId: string, agentId: string): Promise<AgentIndex> {
    const version = await this.knowledgeBases.passagesVersion(teamId, agentId);
    const cached = this.indexes.get(agentId);
    if (cached?.version === version) {
      return cached;
    }
    const passages = await this.knowledgeBases.passagesFor(teamId, agentId);
    const built = { version, passages, index: new Bm25Index(passages) };
    this.indexes.delete(agentId);
    if (this.indexes.size >= CACHED_AGENTS) {
      this.indexes.delete(this.indexes.keys().next().value!);
    }
    this.indexes.set(agentId, built);
    return built;
  }
}
