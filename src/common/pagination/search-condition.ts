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
 * `placeholder` (`:search`, `$3`…) for the term bound as `likePattern(term)`.
 */
export function searchCondition(
  engine: 'sqlite' | 'postgres',
  columns: SearchColumns,
  placeholder: string,
): string {
  const matches = `LIKE ${placeholder} ESCAPE '\\'`;
  const conditions = [
    ...columns.searchColumns.map((column) => `LOWER(${column}) ${matches}`),
    ...(columns.searchArrayColumns ?? []).map((column) =>
      engine === 'sqlite'
        ? `EXISTS (SELECT 1 FROM json_each(${column}) WHERE LOWER(value) ${matches})`
        : `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS element ` +
          `WHERE LOWER(element) ${matches})`,
    ),
  ];
  return `(${conditions.join(' OR ')})`;
}
