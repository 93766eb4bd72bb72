/** What a list's search and sort read of one entity. */
export interface ListModel<T> {
  /** Properties searched, case-insensitively, for the term as a substring. */
  search: Array<keyof T>;
  /** Properties holding arrays of strings, searched element by element. */
  searchArrays?: Array<keyof T>;
  /** Sortable field → property. */
  sort: Record<string, keyof T>;
  defaultSort: string;
}

type Value = string | number | Date | null | undefined;

/**
 * The page a list must answer for `query`, computed from every row the list's filters keep: the
 * contract's search, sort (ties broken by id in the same direction, NULLs where the engine puts
 * them: first ascending on SQLite, last ascending on PostgreSQL) and page bounds.
 */
export function expectedPage<T extends { id: string }>(
  rows: T[],
  query: Record<string, string | number>,
  model: ListModel<T>,
  engine: 'sqlite' | 'postgres',
) {
  const page = Number(query.page ?? 1);
  const limit = Number(query.limit ?? 20);
  const term = query.search === undefined ? undefined : String(query.search).toLowerCase();
  const matches = (row: T) =>
    term === undefined ||
    model.search.some((property) =>
      String(row[property] ?? '')
        .toLowerCase()
        .includes(term),
    ) ||
    (model.searchArrays ?? []).some((property) =>
      ((row[property] as string[] | null) ?? []).some((element) =>
        element.toLowerCase().includes(term),
      ),
    );
  const sort = String(query.sort ?? model.defaultSort);
  const descending = sort.startsWith('-');
  const property = model.sort[sort.replace(/^-/, '')];
  const ordered = rows.filter(matches).sort((a, b) => {
    const order =
      compare(a[property] as Value, b[property] as Value, engine) || compare(a.id, b.id, engine);
    return descending ? -order : order;
  });
  const total = ordered.length;
  const pageCount = Math.ceil(total / limit);
  return {
    ids: ordered.slice((page - 1) * limit, page * limit).map((row) => row.id),
    meta: {
      total_count: total,
      page_count: pageCount,
      current_page: page,
      limit,
      has_next_page: page < pageCount,
      has_previous_page: page > 1,
    },
  };
}

function compare(a: Value, b: Value, engine: 'sqlite' | 'postgres'): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) {
    const nullsFirst = engine === 'sqlite' ? -1 : 1;
    return aNull && bNull ? 0 : aNull ? nullsFirst : -nullsFirst;
  }
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return x < y ? -1 : x > y ? 1 : 0;
}
