import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import { exactForms, SearchForm, SearchKey } from '../search/search-terms';
import {
  CandidateMode,
  CandidatePassage,
  IndexedPassage,
  ownedBy,
  ownerTokens,
  PASSAGE_COLUMNS,
  PassageIndex,
  PassageOwners,
  passageValues,
  TermOwner,
} from './passage-index';

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * SQLite's passage index: the FTS5 table `knowledge_fts` over the passages' own columns, kept in
 * step by triggers (migration 1732608000000), queried with MATCH and ranked by bm25.
 */
export class Fts5Index implements PassageIndex {
  constructor(private readonly db: Database) {}

  async insert(passage: IndexedPassage): Promise<void> {
    const params = new SqlParams();
    const values = params.list(passageValues(passage));
    await this.db.execute(
      `INSERT INTO knowledge_passages (${PASSAGE_COLUMNS}) VALUES (${values})`,
      params.values,
    );
  }

  async addTerms(owner: TermOwner, terms: string[]): Promise<void> {
    // `WHERE true` tells SQLite's parser the ON CONFLICT clause is the INSERT's, not a join's.
    await this.db.execute(
      'INSERT INTO knowledge_terms (owner_key, agent_id, workflow_id, term) ' +
        'SELECT $1, $2, $3, value FROM json_each($4) WHERE true ON CONFLICT DO NOTHING',
      [owner.ownerKey, owner.agentId, owner.workflowId, terms],
    );
  }

  async candidates(
    owners: PassageOwners,
    keys: SearchKey[],
    limit: number,
    mode: CandidateMode,
  ): Promise<CandidatePassage[]> {
    const params = new SqlParams();
    const sql =
      'SELECT p.source, p.title, p.content, p.terms ' +
      'FROM knowledge_fts f JOIN knowledge_passages p ON p.seq = f.rowid ' +
      `WHERE knowledge_fts MATCH ${params.add(this.query(owners, keys, mode))} ` +
      `AND ${ownedBy(params, owners)} ` +
      (mode === 'ranked'
        ? 'ORDER BY bm25(knowledge_fts, 0.0, 2.0, 1.0, 1.0) ASC, p.position ASC '
        : '') +
      `LIMIT ${params.add(limit)}`;
    return (await this.db.execute<CandidatePassage>(sql, params.values)).rows;
  }

  holding(params: SqlParams, owners: PassageOwners, key: SearchKey, cap: number): string {
    return (
      '(SELECT count(*) FROM (SELECT 1 FROM knowledge_fts ' +
      `WHERE knowledge_fts MATCH ${params.add(this.query(owners, [key], 'ranked'))} ` +
      `LIMIT ${params.add(cap)}))`
    );
  }

  /** The FTS5 query: the owners' token, and any key (every key for `first`) in the text. */
  private query(owners: PassageOwners, keys: SearchKey[], mode: CandidateMode): string {
    const owner = `owner_key : (${ownerTokens(owners, mode).map(quoted).join(' OR ')})`;
    const columns = mode === 'titles' ? 'title' : '{title content terms}';
    const form = (f: SearchForm) =>
      f.exact ? exactForms(f).map(quoted).join(' OR ') : `${quoted(f.text)}*`;
    const terms = keys.map((key) => `${columns} : (${key.forms.map(form).join(' OR ')})`);
    return `${owner} AND (${terms.join(mode === 'first' ? ' AND ' : ' OR ')})`;
  }
}
