import { Injectable } from '@nestjs/common';
import type { WorkflowFaq } from '@/modules/workflows/entities/workflow.entity';
import { RankedPassage, rankPassages } from './search/passage-ranking';
import { KeyFrequencies, PassageOwners } from './index/passage-index';
import { faqDigest, PassagesRepository } from './index/passages.repository';
import { keyOf, SearchKey, searchKeys } from './search/search-terms';
import { corrections, maxEdits, withDictionaryWords } from './search/typo-correction';

export type { RankedPassage } from './search/passage-ranking';

/** Passages the database ranks first, ranked again here (their scores compare across owners). */
const CANDIDATES = 30;
/**
 * When the rare words of a question are held by no more passages than this in all, they are all
 * read and ranked here: cheaper than the database's ranking, which weighs each word by reading
 * every passage of the agent that holds it.
 */
const ALL_CANDIDATES = 200;
/** FAQ entries read for a question of common words only. */
const TITLE_CANDIDATES = 100;
/**
 * A word held by more passages than this is too common to pick candidates by: it would make the
 * database rank most of a large knowledge base. It is counted no further (counting reads every
 * passage holding it) and weighs as a word held by half the passages: it still counts in the
 * ranking of the candidates the rarer words find, a little. A question of common words only
 * takes the titles (FAQ questions) that hold them, ranked, and the first passages holding them.
 */
const COMMON_WORD_PASSAGES = 200;
/**
 * Workflows whose FAQ this instance last saw indexed, by version (only saves a read). The version
 * is the workflow's `updated_at` with the digest: a digest alone would be wrong once another
 * instance indexed a later FAQ and the workflow then went back to the one remembered here.
 */
const REMEMBERED_FAQS = 1_000;

/** Whose knowledge to search: an agent's items, and the FAQ of its workflow if it has one. */
export interface KnowledgeScope {
  teamId: string;
  agentId: string;
  /** Without `updatedAt` (no version known), every question reads the indexed FAQ's digest. */
  workflow: { id: string; faq: WorkflowFaq[] | null; updatedAt?: Date } | null;
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
    let keys = searchKeys(question);
    if (keys.length === 0) {
      return [];
    }
    if (scope.workflow) {
      await this.syncFaq(scope.workflow);
    }
    const owners: PassageOwners = {
      teamId: scope.teamId,
      agentId: scope.agentId,
      workflowId: scope.workflow?.id ?? null,
    };
    let frequencies = await this.passages.frequencies(owners, keys, COMMON_WORD_PASSAGES + 1);
    // A typo of a general word is read again as a question: it may ask a cue ("adress").
    const retyped = withDictionaryWords(
      question,
      keys.filter((key, i) => !key.cue && frequencies.counts[i] === 0).map((key) => key.word),
    );
    if (retyped) {
      keys = searchKeys(retyped);
      frequencies = await this.passages.frequencies(owners, keys, COMMON_WORD_PASSAGES + 1);
    }
    const { keys: searched, frequencies: counted } = await this.corrected(
      owners,
      keys,
      frequencies,
    );
    return this.ranked(owners, searched, counted);
  }

  /**
   * The keys with each word the knowledge never uses replaced by the closest words it does use
   * (a typo: "batery" → "battery"), when any of those is in the index; the rest stay as asked.
   */
  private async corrected(
    owners: PassageOwners,
    keys: SearchKey[],
    frequencies: KeyFrequencies,
  ): Promise<{ keys: SearchKey[]; frequencies: KeyFrequencies }> {
    const unknown = keys.filter(
      (key, i) => !key.cue && frequencies.counts[i] === 0 && maxEdits(key.word) > 0,
    );
    if (unknown.length === 0) {
      return { keys, frequencies };
    }
    const vocabulary = await this.passages.vocabulary(
      owners,
      unknown.map((key) => key.word),
    );
    const replacements = new Map<SearchKey, SearchKey>();
    for (const key of unknown) {
      const close = corrections(key.word, vocabulary);
      if (close.length > 0) {
        const [first, ...others] = close.map(keyOf);
        replacements.set(key, {
          ...first,
          word: key.word,
          forms: [...first.forms, ...others.flatMap((other) => other.forms)],
        });
      }
    }
    if (replacements.size === 0) {
      return { keys, frequencies };
    }
    const replaced = [...replacements.values()];
    const counts = (await this.passages.frequencies(owners, replaced, COMMON_WORD_PASSAGES + 1))
      .counts;
    const found = new Map(replaced.map((key, i) => [key, counts[i]]));
    return {
      keys: keys.map((key) => {
        const replacement = replacements.get(key);
        return replacement && found.get(replacement) ? replacement : key;
      }),
      frequencies: {
        total: frequencies.total,
        counts: keys.map((key, i) => {
          const replacement = replacements.get(key);
          return (replacement && found.get(replacement)) || frequencies.counts[i];
        }),
      },
    };
  }

  private async ranked(
    owners: PassageOwners,
    keys: SearchKey[],
    frequencies: KeyFrequencies,
  ): Promise<RankedPassage[]> {
    const common = COMMON_WORD_PASSAGES;
    const known = keys
      .map((key, i) => ({ key, count: frequencies.counts[i] }))
      .filter(({ count }) => count > 0)
      .sort((a, b) => a.count - b.count);
    if (known.length === 0) {
      return [];
    }
    const rare = known.filter(({ count }) => count <= common);
    const held = rare.reduce((sum, { count }) => sum + count, 0);
    const candidates =
      rare.length > 0
        ? held <= ALL_CANDIDATES
          ? await this.passages.candidates(
              owners,
              rare.map(({ key }) => key),
              held,
              'all',
            )
          : await this.passages.candidates(
              owners,
              rare.map(({ key }) => key),
              CANDIDATES,
            )
        : [
            ...(await this.passages.candidates(owners, keys, TITLE_CANDIDATES, 'titles')),
            ...(await this.passages.candidates(
              owners,
              known.map(({ key }) => key),
              CANDIDATES,
              'first',
            )),
          ];
    return rankPassages(keys, candidates, {
      total: frequencies.total,
      counts: frequencies.counts.map((count) =>
        count > COMMON_WORD_PASSAGES ? Math.max(count, frequencies.total / 2) : count,
      ),
    });
  }

  private async syncFaq(workflow: NonNullable<KnowledgeScope['workflow']>): Promise<void> {
    const faq = workflow.faq ?? [];
    const version = workflow.updatedAt && `${workflow.updatedAt.getTime()}:${faqDigest(faq)}`;
    if (version && this.indexedFaqs.get(workflow.id) === version) {
      return;
    }
    await this.passages.syncFaq(workflow.id, faq);
    this.indexedFaqs.delete(workflow.id);
    if (!version) {
      return;
    }
    if (this.indexedFaqs.size >= REMEMBERED_FAQS) {
      this.indexedFaqs.delete(this.indexedFaqs.keys().next().value!);
    }
    this.indexedFaqs.set(workflow.id, version);
  }
}
