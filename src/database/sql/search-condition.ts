import { Dialect } from './dialect';

/** The columns a list's `search` looks in. */
export interface SearchColumns {
  /** Column expressions searched, case-insensitively, for `search` as a substring. */
  searchColumns: string[];
  /** Columns holding a JSON array of strings: each element is searched, never the JSON text. */
  searchArrayColumns?: string[];
}

export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The condition a row meets when one of `columns` holds the search term, written with
 * `placeholder` (`$3`…) for the term bound as `likePattern(term)`.
 */
export function searchCondition(
  dialect: Dialect,
  columns: SearchColumns,
  placeholder: string,
): string {
  const matches = (expression: string) => `LOWER(${expression}) LIKE ${placeholder} ESCAPE '\\'`;
  const conditions = [
    ...columns.searchColumns.map(matches),
    ...(columns.searchArrayColumns ?? []).map((column) => dialect.anyJsonElement(column, matches)),
  ];
  return `(${conditions.join(' OR ')})`;
}
