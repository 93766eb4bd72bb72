import { Injectable } from '@nestjs/common';
import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { KnowledgeIndexService, RankedPassage } from '@/modules/knowledge/knowledge-index.service';
import type { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';

/**
 * Without a model, the best passage answers alone only when it holds at least this share of the
 * question's weight (each word weighing its rarity in the agent's knowledge): a wrong confident
 * answer is worse than a hand-off.
 */
export const MIN_ANSWER_COVERAGE = 0.6;

/**
 * Or when it holds less, but clearly more than any other passage: at least this share, this much
 * more than the next passage, and at least this many of the question's own words. The words it
 * lacks are then more likely the customer's way of putting it ("for my daughter's birthday",
 * "a broken iPhone display") than a subject the knowledge lacks; a passage holding one word of
 * the question alone ("do you sell fishing permits") is never clear.
 */
export const CLEAR_LEAD = { coverage: 0.45, lead: 0.2, subjectKeys: 2 };

/** Whether the best of the ranked passages answers the question on its own. */
export function answers(best: RankedPassage, next: RankedPassage | undefined): boolean {
  if (best.coverage >= MIN_ANSWER_COVERAGE) {
    return true;
  }
  return (
    best.coverage >= CLEAR_LEAD.coverage &&
    best.coverage - (next?.coverage ?? 0) >= CLEAR_LEAD.lead &&
    best.subjectKeys >= CLEAR_LEAD.subjectKeys
  );
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
  workflow:
    (Pick<WorkflowEntity, 'id' | 'faq'> & Partial<Pick<WorkflowEntity, 'updatedAt'>>) | null;
}

/** The agent's knowledge as replies use it: ranked for a model, or one answer on its own. */
@Injectable()
export class KnowledgeSearch {
  constructor(private readonly index: KnowledgeIndexService) {}

  /** The passages a model should read for the question, best first (a FAQ entry whole). */
  async topPassages(
    owner: KnowledgeOwner,
    question: string,
    limit: number,
  ): Promise<FoundPassage[]> {
    return (await this.search(owner, question)).slice(0, limit).map((passage) => ({
      text: passage.source === 'faq' ? `${passage.title}\n${passage.content}` : passage.content,
      score: passage.score,
      source: passage.source,
    }));
  }

  /** The one passage that answers the question on its own, or null (then a person should). */
  async bestAnswer(owner: KnowledgeOwner, question: string): Promise<FoundPassage | null> {
    const [best, next] = await this.search(owner, question);
    if (!best || !answers(best, next)) {
      return null;
    }
    return { text: best.content, score: best.score, source: best.source };
  }

  private search({ agent, workflow }: KnowledgeOwner, question: string): Promise<RankedPassage[]> {
    return this.index.search(
      {
        teamId: agent.teamId,
        agentId: agent.id,
        workflow: workflow && { id: workflow.id, faq: workflow.faq, updatedAt: workflow.updatedAt },
      },
      question,
    );
  }
}
