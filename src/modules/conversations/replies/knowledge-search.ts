import { Injectable } from '@nestjs/common';
import { KnowledgeBasesService } from '@/modules/agents/knowledge-bases/knowledge-bases.service';
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

export interface FoundPassage {
  text: string;
  score: number;
}

/**
 * Ranks an agent's text knowledge passages for a question. Each agent's index is kept in memory
 * and rebuilt when its knowledge bases change (count or newest update), on any instance.
 */
@Injectable()
export class KnowledgeSearch {
  private readonly indexes = new Map<string, AgentIndex>();

  constructor(private readonly knowledgeBases: KnowledgeBasesService) {}

  async search(
    teamId: string,
    agentId: string,
    question: string,
    limit: number,
  ): Promise<FoundPassage[]> {
    const index = await this.indexFor(teamId, agentId);
    return index.index
      .search(question, limit)
      .filter((hit) => isRelevant(hit.matchedTerms, hit.queryTerms))
      .map((hit) => ({ text: index.passages[hit.index], score: hit.score }));
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
