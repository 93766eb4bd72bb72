import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { WorkflowFaq } from '@/modules/workflows/entities/workflow.entity';
import { PassageSource } from './entities/knowledge-base.entity';
import { toPassages } from './passages';
import { compounds, exactForms, fold, ownerToken, SearchKey } from './search-terms';

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

export type CandidateMode = 'ranked' | 'titles' | 'first';

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
      for (const [position, content] of toPassages(text ?? '').entries()) {
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
   * first; `titles`: the same among titles (FAQ questions) only; `first`: holding every key, in
   * no order, the cheap way when the keys are so common that ranking them would read most of a
   * large knowledge base.
   */
  async candidates(
    owners: PassageOwners,
    keys: SearchKey[],
    limit: number,
    mode: CandidateMode = 'ranked',
  ): Promise<CandidatePassage[]> {
    if (keys.length === 0) {
      return [];
    }
    const scope = '(("p"."team_id" = __T AND "p"."agent_id" = __A) OR "p"."workflow_id" = __W)';
    if (this.db.kind === 'postgres') {
      return (await this.db.manager.query<unknown>(
        `SELECT "p"."source", "p"."title", "p"."content", "p"."terms"
         FROM "knowledge_passages" "p", to_tsquery('simple', $1) "q"
         WHERE "p"."search" @@ "q" AND ${scope.replace('__T', '$2').replace('__A', '$3').replace('__W', '$4')}
         ${mode === 'first' ? '' : 'ORDER BY ts_rank("p"."search", "q") DESC, "p"."position" ASC'}
         LIMIT $5`,
        [this.tsQuery(owners, keys, mode), owners.teamId, owners.agentId, owners.workflowId, limit],
      )) as CandidatePassage[];
    }
    return (await this.db.manager.query<unknown>(
      `SELECT "p"."source", "p"."title", "p"."content", "p"."terms"
       FROM "knowledge_fts" "f" JOIN "knowledge_passages" "p" ON "p"."seq" = "f"."rowid"
       WHERE "knowledge_fts" MATCH ? AND ${scope.replace(/__[TAW]/g, '?')}
       ${mode === 'first' ? '' : 'ORDER BY bm25("knowledge_fts", 0.0, 2.0, 1.0, 1.0) ASC, "p"."position" ASC'}
       LIMIT ?`,
      [this.ftsQuery(owners, keys, mode), owners.teamId, owners.agentId, owners.workflowId, limit],
    )) as CandidatePassage[];
  }

  /** How many of the owners' passages there are, and how many hold each key. */
  async frequencies(owners: PassageOwners, keys: SearchKey[]): Promise<KeyFrequencies> {
    const queries = [null, ...keys].map((key) =>
      this.db.kind === 'postgres'
        ? this.tsQuery(owners, key ? [key] : [])
        : this.ftsQuery(owners, key ? [key] : []),
    );
    const counts =
      this.db.kind === 'postgres'
        ? queries.map(
            (_, i) =>
              `(SELECT count(*) FROM "knowledge_passages" WHERE "search" @@ to_tsquery('simple', $${i + 1}))`,
          )
        : queries.map(() => `(SELECT count(*) FROM "knowledge_fts" WHERE "knowledge_fts" MATCH ?)`);
    const [row] = (await this.db.manager.query<unknown>(
      `SELECT ${counts.map((sql, i) => `${sql} AS "c${i}"`).join(', ')}`,
      queries,
    )) as Array<Record<string, string | number>>;
    const values = queries.map((_, i) => Number(row[`c${i}`]));
    return { total: values[0], counts: values.slice(1) };
  }

  private ownerTokens(owners: PassageOwners): string[] {
    return [owners.agentId, owners.workflowId]
      .filter((id): id is string => Boolean(id))
      .map(ownerToken);
  }

  private ftsQuery(
    owners: PassageOwners,
    keys: SearchKey[],
    mode: CandidateMode = 'ranked',
  ): string {
    const owner = `owner_key : (${this.ownerTokens(owners).map(quoted).join(' OR ')})`;
    if (keys.length === 0) {
      return owner;
    }
    const columns = mode === 'titles' ? 'title' : '{title content terms}';
    const terms = keys.map(
      (key) =>
        `${columns} : (${key.exact ? exactForms(key).map(quoted).join(' OR ') : `${quoted(key.text)}*`})`,
    );
    return `${owner} AND (${terms.join(mode === 'first' ? ' AND ' : ' OR ')})`;
  }

  private tsQuery(
    owners: PassageOwners,
    keys: SearchKey[],
    mode: CandidateMode = 'ranked',
  ): string {
    const owner = `(${this.ownerTokens(owners)
      .map((token) => `${token}:D`)
      .join(' | ')})`;
    if (keys.length === 0) {
      return owner;
    }
    // Keys hold letters and digits only; quoting keeps to_tsquery from reading any as syntax.
    const weights = mode === 'titles' ? 'A' : 'AB';
    const terms = keys.map((key) =>
      key.exact
        ? `(${exactForms(key)
            .map((form) => `'${form}':${weights}`)
            .join(' | ')})`
        : `'${key.text}':*${weights}`,
    );
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
