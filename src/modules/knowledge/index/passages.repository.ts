import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import type { WorkflowFaq } from '@/modules/workflows/entities/workflow.entity';
import {
  KnowledgeFaqVersionEntity,
  KnowledgePassageEntity,
  PassageSource,
} from '../entities/knowledge-base.entity';
import { pageTitle, toPassages } from '../search/passages';
import { compounds, ownerToken, phrasalCompounds, SearchKey, words } from '../search/search-terms';
import { maxEdits, vocabularyWord } from '../search/typo-correction';
import {
  CandidateMode,
  CandidatePassage,
  KeyFrequencies,
  ownerTokens,
  PassageIndex,
  PassageOwners,
} from './passage-index';

/** A FAQ's version row, created empty when the workflow still exists and has none. */
const FAQ_VERSION_ROW =
  "INSERT INTO knowledge_faq_versions (workflow_id, digest) SELECT $1, '' " +
  'WHERE EXISTS (SELECT 1 FROM workflows WHERE id = $2) ON CONFLICT (workflow_id) DO NOTHING';

/** The owners' passages, kept by the database on every insert and delete (migration 1732953600000). */
const OWNERS_TOTAL = (params: SqlParams, tokens: [string, string]) =>
  'SELECT coalesce(sum(passages), 0) FROM knowledge_owner_sizes ' +
  `WHERE owner_key IN (${params.list(tokens)})`;

interface NewPassage {
  teamId: string | null;
  agentId: string | null;
  knowledgeBaseId: string | null;
  workflowId: string | null;
  source: PassageSource;
  position: number;
  title: string;
  content: string;
}

/** The words a passage is also found by: its hyphenated words and phrasal verbs written as one. */
function searchOnlyTerms(text: string): string {
  return [compounds(text), phrasalCompounds(text)].filter(Boolean).join(' ');
}

export function faqDigest(faq: WorkflowFaq[] | null | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(faq ?? []))
    .digest('hex');
}

/** The passages of items and FAQs, their owners' vocabulary, and searches of their index. */
@Injectable()
export class PassagesRepository {
  constructor(
    private readonly db: Database,
    private readonly index: PassageIndex,
  ) {}

  /** Replaces an item's passages with those of `text` (none for null), in the caller's transaction. */
  async replaceForItem(
    item: { id: string; teamId: string; agentId: string; type: 'text' | 'url' },
    text: string | null,
  ): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.delete(KnowledgePassageEntity, { knowledgeBaseId: item.id });
      const passages = toPassages(text ?? '');
      const title = item.type === 'url' ? pageTitle(text ?? '') : '';
      for (const [position, content] of passages.entries()) {
        await this.insert({
          teamId: item.teamId,
          agentId: item.agentId,
          knowledgeBaseId: item.id,
          workflowId: null,
          source: item.type === 'url' ? 'url' : 'kb',
          position,
          title,
          content,
        });
      }
      await this.addTerms({ agentId: item.agentId, workflowId: null }, passages);
    });
  }

  /**
   * Makes the workflow's FAQ passages those of `faq`, unless they already are (same digest). Two
   * instances doing it at once take turns on the version row.
   */
  async syncFaq(workflowId: string, faq: WorkflowFaq[]): Promise<void> {
    const digest = faqDigest(faq);
    if ((await this.faqDigestOf(workflowId)) === digest) {
      return;
    }
    await this.db.transaction(async () => {
      await this.db.execute(FAQ_VERSION_ROW, [workflowId, workflowId]);
      const version = await this.db.findOne(
        KnowledgeFaqVersionEntity,
        { workflowId },
        { lock: 'update' },
      );
      if (!version || version.digest === digest) {
        return;
      }
      await this.db.delete(KnowledgePassageEntity, { workflowId });
      for (const [position, entry] of faq.entries()) {
        if (entry.question?.trim() && entry.answer?.trim()) {
          await this.insert({
            teamId: null,
            agentId: null,
            knowledgeBaseId: null,
            workflowId,
            source: 'faq',
            position,
            title: entry.question,
            content: entry.answer,
          });
        }
      }
      await this.addTerms(
        { agentId: null, workflowId },
        faq.flatMap((entry) => [entry.question ?? '', entry.answer ?? '']),
      );
      await this.db.update(KnowledgeFaqVersionEntity, { workflowId }, { digest });
    });
  }

  async faqDigestOf(workflowId: string): Promise<string | null> {
    return (await this.db.findOne(KnowledgeFaqVersionEntity, { workflowId }))?.digest ?? null;
  }

  /**
   * The owners' passages for `keys`. `ranked`: holding any key, best ranked by the database
   * first; `all`: holding any key, in no order (when all of them are wanted: ranking by the
   * database reads every passage of the owner and of each key, to weigh them); `titles`: holding
   * any key in their title (FAQ questions), in no order; `first`: holding every key, in no
   * order, the cheap way when the keys are so common that ranking them would read most of a
   * large knowledge base.
   */
  async candidates(
    owners: PassageOwners,
    keys: SearchKey[],
    limit: number,
    mode: CandidateMode = 'ranked',
  ): Promise<CandidatePassage[]> {
    if (keys.length === 0 || (mode === 'titles' && !owners.workflowId)) {
      return [];
    }
    return this.index.candidates(owners, keys, limit, mode);
  }

  /**
   * How many of the owners' passages there are, and how many hold each key, counted up to `cap`
   * (a key held by more is common: counting it further would read most of a large index).
   */
  async frequencies(
    owners: PassageOwners,
    keys: SearchKey[],
    cap: number,
  ): Promise<KeyFrequencies> {
    const params = new SqlParams();
    const tokens: [string, string] = [
      ownerToken(owners.agentId),
      owners.workflowId ? ownerToken(owners.workflowId) : '',
    ];
    const counts = [
      `(${OWNERS_TOTAL(params, tokens)})`,
      ...keys.map((key) => this.index.holding(params, owners, key, cap)),
    ];
    const { rows } = await this.db.execute<Record<string, string | number>>(
      `SELECT ${counts.map((sql, i) => `${sql} AS c${i}`).join(', ')}`,
      params.values,
    );
    const values = counts.map((_, i) => Number(rows[0][`c${i}`]));
    return { total: values[0], counts: values.slice(1) };
  }

  /**
   * The owners' vocabulary words a typo of each of `words` could stand for: those starting with
   * the same letter, of a length within its allowed edits. A word may outlive the passages that
   * held it (the vocabulary only grows): a correction is counted in the index before it is used.
   */
  async vocabulary(owners: PassageOwners, questionWords: string[]): Promise<string[]> {
    const tokens = ownerTokens(owners);
    const typos = questionWords.filter((word) => maxEdits(word) > 0);
    if (typos.length === 0 || tokens.length === 0) {
      return [];
    }
    const params = new SqlParams();
    const owner = `owner_key IN (${params.list(tokens)})`;
    const within = typos.map((word) => {
      const first = String.fromCodePoint(word.codePointAt(0)!);
      const next = String.fromCodePoint(word.codePointAt(0)! + 1);
      const [shortest, longest] = [word.length - maxEdits(word), word.length + maxEdits(word)];
      return (
        `(term >= ${params.add(first)} AND term < ${params.add(next)} ` +
        `AND length(term) BETWEEN ${params.add(shortest)} AND ${params.add(longest)})`
      );
    });
    const { rows } = await this.db.execute<{ term: string }>(
      `SELECT DISTINCT term FROM knowledge_terms WHERE ${owner} AND (${within.join(' OR ')})`,
      params.values,
    );
    return rows.map((row) => row.term);
  }

  /** Adds the words of `texts` to their owner's vocabulary (in the caller's transaction). */
  private async addTerms(
    owner: { agentId: string | null; workflowId: string | null },
    texts: string[],
  ): Promise<void> {
    const terms = [
      ...new Set(texts.flatMap((text) => [...words(text), ...words(searchOnlyTerms(text))])),
    ].filter(vocabularyWord);
    if (terms.length > 0) {
      const ownerKey = ownerToken((owner.agentId ?? owner.workflowId)!);
      await this.index.addTerms({ ownerKey, ...owner }, terms);
    }
  }

  private insert(passage: NewPassage): Promise<void> {
    return this.index.insert({
      ...passage,
      id: newId(),
      ownerKey: ownerToken((passage.agentId ?? passage.workflowId)!),
      terms: searchOnlyTerms(`${passage.title}\n${passage.content}`),
    });
  }
}
