import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import type { WorkflowFaq } from '@/modules/workflows/entities/workflow.entity';
import { PassageSource } from '../entities/knowledge-base.entity';
import { toPassages } from '../search/passages';
import {
  compounds,
  exactForms,
  fold,
  ownerToken,
  SearchForm,
  SearchKey,
  words,
} from '../search/search-terms';
import { maxEdits, vocabularyWord } from '../search/typo-correction';

/** Whose passages a search reads: an agent's items (within its team) and a workflow's FAQ. */
export interface PassageOwners {
  teamId: string;
  agentId: string;
  workflowId: string | null;
}

export interface CandidatePassage {
  source: PassageSource;
  title: string;
  content: string;
  /** Search-only words: the text's hyphenated words written as one. */
  terms: string;
}

export type CandidateMode = 'ranked' | 'all' | 'titles' | 'first';

export interface KeyFrequencies {
  /** Passages of the owners. */
  total: number;
  /** For each key, in order: how many of those passages hold it. */
  counts: number[];
}

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

export function faqDigest(faq: WorkflowFaq[] | null | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(faq ?? []))
    .digest('hex');
}

/**
 * The PostgreSQL document of a passage: its owner (weight D, matched only by the owner filter),
 * its title (A) and its text (B), folded as the search keys are, without stemming ('simple').
 */
const POSTGRES_SEARCH_VECTOR =
  "setweight(to_tsvector('simple', $1), 'D') || setweight(to_tsvector('simple', $2), 'A') || " +
  "setweight(to_tsvector('simple', $3), 'B') || setweight(to_tsvector('simple', $4), 'B')";

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The passages and their full-text index. SQLite: an FTS5 table kept by triggers, queried with
 * MATCH; PostgreSQL: a `tsvector` column under a GIN index, queried with `@@`. Both find the
 * owners' passages through an owner token in the index, so a search touches only them.
 */
@Injectable()
export class PassagesRepository {
  constructor(private readonly db: Database) {}

  /** Replaces an item's passages with those of `text` (none for null), in the caller's transaction. */
  async replaceForItem(
    item: { id: string; teamId: string; agentId: string; type: 'text' | 'url' },
    text: string | null,
  ): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.manager.query(
        `DELETE FROM "knowledge_passages" WHERE "knowledge_base_id" = ${this.param(1)}`,
        [item.id],
      );
      const passages = toPassages(text ?? '');
      for (const [position, content] of passages.entries()) {
        await this.insert({
          teamId: item.teamId,
          agentId: item.agentId,
          knowledgeBaseId: item.id,
          workflowId: null,
          source: item.type === 'url' ? 'url' : 'kb',
          position,
          title: '',
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
      await this.db.manager.query(
        `INSERT INTO "knowledge_faq_versions" ("workflow_id", "digest")
         SELECT ${this.param(1)}, '' WHERE EXISTS (SELECT 1 FROM "workflows" WHERE "id" = ${this.param(2)})
         ON CONFLICT ("workflow_id") DO NOTHING`,
        [workflowId, workflowId],
      );
      const [row] = (await this.db.manager.query<unknown>(
        `SELECT "digest" FROM "knowledge_faq_versions" WHERE "workflow_id" = ${this.param(1)}${
          this.db.kind === 'postgres' ? ' FOR UPDATE' : ''
        }`,
        [workflowId],
      )) as Array<{ digest: string }>;
      if (!row || row.digest === digest) {
        return;
      }
      await this.db.manager.query(
        `DELETE FROM "knowledge_passages" WHERE "workflow_id" = ${this.param(1)}`,
        [workflowId],
      );
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
      await this.db.manager.query(
        `UPDATE "knowledge_faq_versions" SET "digest" = ${this.param(1)} WHERE "workflow_id" = ${this.param(2)}`,
        [digest, workflowId],
      );
    });
  }

  async faqDigestOf(workflowId: string): Promise<string | null> {
    const [row] = (await this.db.manager.query<unknown>(
      `SELECT "digest" FROM "knowledge_faq_versions" WHERE "workflow_id" = ${this.param(1)}`,
      [workflowId],
    )) as Array<{ digest: string }>;
    return row?.digest ?? null;
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
    const scope = '(("p"."team_id" = __T AND "p"."agent_id" = __A) OR "p"."workflow_id" = __W)';
    if (this.db.kind === 'postgres') {
      return (await this.db.manager.query<unknown>(
        `SELECT "p"."source", "p"."title", "p"."content", "p"."terms"
         FROM "knowledge_passages" "p", to_tsquery('simple', $1) "q"
         WHERE "p"."search" @@ "q" AND ${scope.replace('__T', '$2').replace('__A', '$3').replace('__W', '$4')}
         ${mode === 'ranked' ? 'ORDER BY ts_rank("p"."search", "q") DESC, "p"."position" ASC' : ''}
         LIMIT $5`,
        [this.tsQuery(owners, keys, mode), owners.teamId, owners.agentId, owners.workflowId, limit],
      )) as CandidatePassage[];
    }
    return (await this.db.manager.query<unknown>(
      `SELECT "p"."source", "p"."title", "p"."content", "p"."terms"
       FROM "knowledge_fts" "f" JOIN "knowledge_passages" "p" ON "p"."seq" = "f"."rowid"
       WHERE "knowledge_fts" MATCH ? AND ${scope.replace(/__[TAW]/g, '?')}
       ${mode === 'ranked' ? 'ORDER BY bm25("knowledge_fts", 0.0, 2.0, 1.0, 1.0) ASC, "p"."position" ASC' : ''}
       LIMIT ?`,
      [this.ftsQuery(owners, keys, mode), owners.teamId, owners.agentId, owners.workflowId, limit],
    )) as CandidatePassage[];
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
    const postgres = this.db.kind === 'postgres';
    const queries = keys.map((key) =>
      postgres ? this.tsQuery(owners, [key]) : this.ftsQuery(owners, [key]),
    );
    const counts = queries.map((_, i) =>
      postgres
        ? `(SELECT count(*) FROM (SELECT 1 FROM "knowledge_passages"
             WHERE "search" @@ to_tsquery('simple', $${i + 3}) LIMIT ${Number(cap)}) "k")`
        : `(SELECT count(*) FROM (SELECT 1 FROM "knowledge_fts"
             WHERE "knowledge_fts" MATCH ? LIMIT ${Number(cap)}))`,
    );
    // Kept by the database on every insert and delete (migration 1732953600000).
    const total = `(SELECT coalesce(sum("passages"), 0) FROM "knowledge_owner_sizes"
       WHERE "owner_key" IN (${this.param(1)}, ${this.param(2)}))`;
    const [row] = (await this.db.manager.query<unknown>(
      `SELECT ${[total, ...counts].map((sql, i) => `${sql} AS "c${i}"`).join(', ')}`,
      [
        ownerToken(owners.agentId),
        owners.workflowId ? ownerToken(owners.workflowId) : '',
        ...queries,
      ],
    )) as Array<Record<string, string | number>>;
    const values = [total, ...counts].map((_, i) => Number(row[`c${i}`]));
    return { total: values[0], counts: values.slice(1) };
  }

  /**
   * The owners' vocabulary words a typo of each of `words` could stand for: those starting with
   * the same letter, of a length within its allowed edits. A word may outlive the passages that
   * held it (the vocabulary only grows): a correction is counted in the index before it is used.
   */
  async vocabulary(owners: PassageOwners, questionWords: string[]): Promise<string[]> {
    const ranges = questionWords
      .filter((word) => maxEdits(word) > 0)
      .map((word) => {
        const first = String.fromCodePoint(word.codePointAt(0)!);
        const next = String.fromCodePoint(word.codePointAt(0)! + 1);
        return [first, next, word.length - maxEdits(word), word.length + maxEdits(word)] as const;
      });
    const tokens = this.ownerTokens(owners);
    if (ranges.length === 0 || tokens.length === 0) {
      return [];
    }
    let n = 0;
    const p = () => this.param(++n);
    const owner = `"owner_key" IN (${tokens.map(p).join(', ')})`;
    const within = ranges
      .map(
        () => `("term" >= ${p()} AND "term" < ${p()} AND length("term") BETWEEN ${p()} AND ${p()})`,
      )
      .join(' OR ');
    const rows = (await this.db.manager.query<unknown>(
      `SELECT DISTINCT "term" FROM "knowledge_terms" WHERE ${owner} AND (${within})`,
      [...tokens, ...ranges.flat()],
    )) as Array<{ term: string }>;
    return rows.map((row) => row.term);
  }

  /** Adds the words of `texts` to their owner's vocabulary (in the caller's transaction). */
  private async addTerms(
    owner: { agentId: string | null; workflowId: string | null },
    texts: string[],
  ): Promise<void> {
    const terms = [
      ...new Set(texts.flatMap((text) => [...words(text), ...words(compounds(text))])),
    ].filter(vocabularyWord);
    if (terms.length === 0) {
      return;
    }
    const ownerKey = ownerToken((owner.agentId ?? owner.workflowId)!);
    if (this.db.kind === 'postgres') {
      await this.db.manager.query(
        `INSERT INTO "knowledge_terms" ("owner_key", "agent_id", "workflow_id", "term")
         SELECT $1, $2, $3, unnest($4::text[]) ON CONFLICT DO NOTHING`,
        [ownerKey, owner.agentId, owner.workflowId, terms],
      );
    } else {
      await this.db.manager.query(
        `INSERT INTO "knowledge_terms" ("owner_key", "agent_id", "workflow_id", "term")
         SELECT ?, ?, ?, "value" FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
        [ownerKey, owner.agentId, owner.workflowId, JSON.stringify(terms)],
      );
    }
  }

  /** The owners' index tokens; only the workflow's for titles (only FAQ passages have one). */
  private ownerTokens(owners: PassageOwners, mode: CandidateMode = 'ranked'): string[] {
    return [mode === 'titles' ? null : owners.agentId, owners.workflowId]
      .filter((id): id is string => Boolean(id))
      .map(ownerToken);
  }

  private ftsQuery(
    owners: PassageOwners,
    keys: SearchKey[],
    mode: CandidateMode = 'ranked',
  ): string {
    const owner = `owner_key : (${this.ownerTokens(owners, mode).map(quoted).join(' OR ')})`;
    if (keys.length === 0) {
      return owner;
    }
    const columns = mode === 'titles' ? 'title' : '{title content terms}';
    const form = (f: SearchForm) =>
      f.exact ? exactForms(f).map(quoted).join(' OR ') : `${quoted(f.text)}*`;
    const terms = keys.map((key) => `${columns} : (${key.forms.map(form).join(' OR ')})`);
    return `${owner} AND (${terms.join(mode === 'first' ? ' AND ' : ' OR ')})`;
  }

  private tsQuery(
    owners: PassageOwners,
    keys: SearchKey[],
    mode: CandidateMode = 'ranked',
  ): string {
    const owner = `(${this.ownerTokens(owners, mode)
      .map((token) => `${token}:D`)
      .join(' | ')})`;
    if (keys.length === 0) {
      return owner;
    }
    // Keys hold letters and digits only; quoting keeps to_tsquery from reading any as syntax.
    const weights = mode === 'titles' ? 'A' : 'AB';
    const form = (f: SearchForm) =>
      f.exact
        ? exactForms(f)
            .map((text) => `'${text}':${weights}`)
            .join(' | ')
        : `'${f.text}':*${weights}`;
    const terms = keys.map((key) => `(${key.forms.map(form).join(' | ')})`);
    return `${owner} & (${terms.join(mode === 'first' ? ' & ' : ' | ')})`;
  }

  private param(n: number): string {
    return this.db.kind === 'postgres' ? `$${n}` : '?';
  }

  private async insert(p: NewPassage): Promise<void> {
    const ownerKey = ownerToken((p.agentId ?? p.workflowId)!);
    const terms = compounds(`${p.title}\n${p.content}`);
    const values = [
      newId(),
      p.teamId,
      p.agentId,
      p.knowledgeBaseId,
      p.workflowId,
      p.source,
      p.position,
      ownerKey,
      p.title,
      p.content,
      terms,
    ];
    const columns = `"id", "team_id", "agent_id", "knowledge_base_id", "workflow_id", "source",
      "position", "owner_key", "title", "content", "terms"`;
    if (this.db.kind === 'postgres') {
      const vector = POSTGRES_SEARCH_VECTOR.replace(
        /\$(\d)/g,
        (_, n: string) => `$${Number(n) + 11}`,
      );
      await this.db.manager.query(
        `INSERT INTO "knowledge_passages" (${columns}, "search")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ${vector})`,
        [...values, ownerKey, fold(p.title), fold(p.content), terms],
      );
    } else {
      await this.db.manager.query(
        `INSERT INTO "knowledge_passages" (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        values,
      );
    }
  }
}
