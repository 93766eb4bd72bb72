import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ListQueryDto } from './list-query.dto';
import { Page } from './page';
import { parseSort } from './sort';

export interface PaginateOptions {
  /** Column expressions searched, case-insensitively, for `search` as a substring. */
  searchColumns: string[];
  /** Columns holding a JSON array of strings: each element is searched, never the JSON text. */
  searchArrayColumns?: string[];
  /** Sortable field name → column expression. */
  sortColumns: Record<string, string>;
  defaultSort: string;
  /** Column used to break ties, so that pages never overlap or skip. */
  tieBreaker: string;
}

const MATCHES_SEARCH = `LIKE :search ESCAPE '\\'`;

export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Applies search, sort and page bounds to `query` and reads one page with its total count. */
export async function paginate<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  list: ListQueryDto,
  options: PaginateOptions,
): Promise<Page<T>> {
  if (list.search) {
    const sqlite = query.connection.options.type === 'better-sqlite3';
    const conditions = [
      ...options.searchColumns.map((column) => `LOWER(${column}) ${MATCHES_SEARCH}`),
      ...(options.searchArrayColumns ?? []).map((column) =>
        sqlite
          ? `EXISTS (SELECT 1 FROM json_each(${column}) WHERE LOWER(value) ${MATCHES_SEARCH})`
          : `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS element ` +
            `WHERE LOWER(element) ${MATCHES_SEARCH})`,
      ),
    ];
    query.andWhere(`(${conditions.join(' OR ')})`, { search: likePattern(list.search) });
  }
  const { field, direction } = parseSort<string>(list.sort ?? options.defaultSort);
  query
    .orderBy(options.sortColumns[field], direction)
    .addOrderBy(options.tieBreaker, direction)
    .offset((list.page - 1) * list.limit)
    .limit(list.limit);
  const [items, total] = await query.getManyAndCount();
  return Page.of(items, total, list.page, list.limit);
}
