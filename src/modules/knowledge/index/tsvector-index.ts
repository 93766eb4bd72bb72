import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import { exactForms, fold, SearchForm, SearchKey } from '../search/search-terms';
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

/**
 * PostgreSQL's passage index: the `tsvector` column `search` under a GIN index, written with each
 * passage, queried with `@@` and ranked by ts_rank.
 */
export class TsvectorIndex implements PassageIndex {
  constructor(private readonly db: Database) {}

  /**
   * The passage's document: its owner (weight D, matched only by the owner filter), its title (A)
   * and its text (B), folded as the search keys are, without stemming ('simple').
   */
  async insert(passage: IndexedPassage): Promise<void> {
    const params = new SqlParams();
    const values = params.list(passageValues(passage));
    const weighted = (text: string, weight: string) =>
      `setweight(to_tsvector('simple', ${params.add(text)}), '${weight}')`;
    const document = [
      weighted(passage.ownerKey, 'D'),
      weighted(fold(passage.title), 'A'),
      weighted(fold(passage.content), 'B'),
      weighted(passage.terms, 'B'),
    ].join(' || ');
    await this.db.execute(
      `INSERT INTO knowledge_passages (${PASSAGE_COLUMNS}, search) VALUES (${values}, ${document})`,
      params.values,
    );
  }

  async addTerms(owner: TermOwner, terms: string[]): Promise<void> {
    await this.db.execute(
      'INSERT INTO knowledge_terms (owner_key, agent_id, workflow_id, term) ' +
        'SELECT $1, $2, $3, term FROM json_array_elements_text($4::json) AS term ' +
        'ON CONFLICT DO NOTHING',
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
      `FROM knowledge_passages p, to_tsquery('simple', ${params.add(this.query(owners, keys, mode))}) q ` +
      `WHERE p.search @@ q AND ${ownedBy(params, owners)} ` +
      (mode === 'ranked' ? 'ORDER BY ts_rank(p.search, q) DESC, p.position ASC ' : '') +
      `LIMIT ${params.add(limit)}`;
    return (await this.db.execute<CandidatePassage>(sql, params.values)).rows;
  }

  holding(params: SqlParams, owners: PassageOwners, key: SearchKey, cap: number): string {
    return (
      '(SELECT count(*) FROM (SELECT 1 FROM knowledge_passages ' +
      `WHERE search @@ to_tsquery('simple', ${params.add(this.query(owners, [key], 'ranked'))}) ` +
      `LIMIT ${params.add(cap)}) k)`
    );
  }

  /** The tsquery: the owners' token, and any key (every key for `first`) in the text. */
  private query(owners: PassageOwners, keys: SearchKey[], mode: CandidateMode): string {
    const owner = `(${ownerTokens(owners, mode)
      .map((token) => `${token}:D`)
      .join(' | ')})`;
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
}
