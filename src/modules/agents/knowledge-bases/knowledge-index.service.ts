import { Injectable } from '@nestjs/common';
import { WorkflowFaq } from '@/modules/workflows/entities/workflow.entity';
import { RankedPassage, rankPassages } from './passage-ranking';
import { faqDigest, PassageOwners, PassagesRepository } from './passages.repository';
import { searchKeys } from './search-terms';

export type { RankedPassage } from './passage-ranking';

/** Passages the database ranks first, ranked again here (their scores compare across owners). */
const CANDIDATES = 30;
/**
 * A word held by more passages than this (and by more than 5% of them) is too common to pick
 * candidates by: it would make the database rank most of a large knowledge base. It still counts
 * in the ranking of the candidates the rarer words find; a question of common words only takes
 * the titles (FAQ questions) that hold them, ranked, and the first passages holding them all.
 */
const COMMON_WORD_PASSAGES = 200;
/** Workflows whose FAQ digest this instance last saw indexed (only saves a read). */
const REMEMBERED_FAQS = 1_000;

/** Whose knowledge to search: an agent's items, and the FAQ of its workflow if it has one. */
export interface KnowledgeScope {
  teamId: string;
  agentId: string;
  workflow: { id: string; faq: WorkflowFaq[] | null } | null;
}

/**
 * Searches an agent's knowledge (its text and fetched URL items, its workflow's FAQ) in the
 * database's full-text index, which every instance shares. A workflow's FAQ is indexed again
 * when its entries change (a digest of them is kept beside its passages).
 */
@Injectable()
export class KnowledgeIndexService {
  private readonly indexedFaqs = new Map<string, string>();

  constructor(private readonly passages: PassagesRepository) {}

  /** The passages that hold any word of the question, best first, each with its coverage. */
  async search(scope: KnowledgeScope, question: string): Promise<RankedPassage[]> {
    const keys = searchKeys(question);
    if (keys.length === 0) {
      return [];
    }
    if (scope.workflow) {
      await this.syncFaq(scope.workflow.id, scope.workflow.faq ?? []);
    }
    const owners: PassageOwners = {
      teamId: scope.teamId,
      agentId: scope.agentId,
      workflowId: scope.workflow?.id ?? null,
    };
    const frequencies = await this.passages.frequencies(owners, keys);
    const common = Math.max(COMMON_WORD_PASSAGES, frequencies.total * 0.05);
    const known = keys
      .map((key, i) => ({ key, count: frequencies.counts[i] }))
      .filter(({ count }) => count > 0)
      .sort((a, b) => a.count - b.count);
    if (known.length === 0) {
      return [];
    }
    const rare = known.filter(({ count }) => count <= common).map(({ key }) => key);
    const candidates =
      rare.length > 0
        ? await this.passages.candidates(owners, rare, CANDIDATES)
        : [
            ...(await this.passages.candidates(owners, keys, CANDIDATES, 'titles')),
            ...(await this.passages.candidates(
              owners,
              known.map(({ key }) => key),
              CANDIDATES,
              'first',
            )),
          ];
    return rankPassages(keys, candidates, frequencies);
  }

  private async syncFaq(workflowId: string, faq: WorkflowFaq[]): Promise<void> {
    const digest = faqDigest(faq);
    if (this.indexedFaqs.get(workflowId) === digest) {
      return;
    }
    await this.passages.syncFaq(workflowId, faq);
    this.indexedFaqs.delete(workflowId);
    if (this.indexedFaqs.size >= REMEMBERED_FAQS) {
      this.indexedFaqs.delete(this.indexedFaqs.keys().next().value!);
    }
    this.indexedFaqs.set(workflowId, digest);
  }
}
