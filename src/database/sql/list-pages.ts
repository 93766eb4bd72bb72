import { EntityTarget, ObjectLiteral } from 'typeorm';
import { Database } from '../database.service';
import { Dialect } from './dialect';
import { SqlParam } from './params';
import { likePattern, SearchColumns, searchCondition } from './search-condition';

/** How one table's list is searched and sorted. */
export interface ListTable extends SearchColumns {
  /** The table and its alias, as FROM names them: `workflows workflow`. */
  from: string;
  /** What a page selects of each row: every column the entity maps, by database name. */
  columns: string;
  /** Sortable field name → column expression. */
  sortColumns: Record<string, string>;
  defaultSort: string;
  /** Column used to break ties, so that pages never overlap or skip. */
  tieBreaker: string;
}

/** The rows a list holds before search: a condition of our own, with `$1…$n` for `params`. */
export interface ListFilter {
  where: string;
  params: readonly SqlParam[];
}

/** What a client asked of a list: a page, its size, a search term, a sort (`-field`: descending). */
export interface ListRequest {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
}

export interface ListPage<T> {
  items: T[];
  total: number;
}

export interface ListStatementTexts {
  /** The page's rows, each with the list's total beside it as `total`; then limit and offset. */
  page: string;
  /** The total on its own, for a page past the end, which has no row to carry it. */
  count: string;
}

/**
 * The SQL of one list read. Only texts of the code's own go in: the filter, the table's columns
 * and a sort column looked up by its whitelisted field name. Values are all bound, so the texts
 * are few and each is prepared once.
 */
export function listStatementTexts(
  table: ListTable,
  dialect: Dialect,
  filter: ListFilter,
  list: Pick<ListRequest, 'search' | 'sort'>,
): ListStatementTexts {
  let where = filter.where;
  let next = filter.params.length + 1;
  if (list.search) {
    where = `(${where}) AND ${searchCondition(dialect, table, `$${next++}`)}`;
  }
  const sort = list.sort ?? table.defaultSort;
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  const sortColumn = Object.hasOwn(table.sortColumns, field) ? table.sortColumns[field] : null;
  if (!sortColumn) {
    throw new Error(`${table.from} cannot be sorted by ${field}`);
  }
  const direction = descending ? 'DESC' : 'ASC';
  const count = `SELECT count(*) AS total FROM ${table.from} WHERE ${where}`;
  return {
    count,
    page:
      `SELECT ${table.columns}, (${count}) AS total FROM ${table.from} WHERE ${where} ` +
      `ORDER BY ${sortColumn} ${direction}, ${table.tieBreaker} ${direction} ` +
      `LIMIT $${next} OFFSET $${next + 1}`,
  };
}

/**
 * The one way lists are read: pages of one table, each read with its total in a single
 * statement (the count is a subquery column beside the page's rows). Only a page past the end,
 * which has no rows, costs a second statement for the total.
 */
export class ListPages<T extends ObjectLiteral> {
  constructor(
    private readonly db: Database,
    private readonly entity: EntityTarget<T>,
    private readonly table: ListTable,
  ) {}

  /** A page of `table` (the list's own, or another way of reading the same rows). */
  async page(filter: ListFilter, list: ListRequest, table = this.table): Promise<ListPage<T>> {
    const texts = listStatementTexts(table, this.db.dialect, filter, list);
    const params = list.search ? [...filter.params, likePattern(list.search)] : filter.params;
    const offset = (list.page - 1) * list.limit;
    const { rows } = await this.db.execute(texts.page, [...params, list.limit, offset]);
    if (rows.length > 0) {
      return { items: this.db.hydrate(this.entity, rows), total: Number(rows[0].total) };
    }
    const total = offset === 0 ? 0 : await this.count(texts.count, params);
    return { items: [], total };
  }

  private async count(sql: string, params: readonly SqlParam[]): Promise<number> {
    const { rows } = await this.db.execute<{ total: number | string }>(sql, params);
    // PostgreSQL's count is a bigint, which its driver hands over as a string.
    return Number(rows[0].total);
  }
}
