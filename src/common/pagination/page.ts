export interface PaginationMeta {
  total_count: number;
  page_count: number;
  current_page: number;
  limit: number;
  has_next_page: boolean;
  has_previous_page: boolean;
}

/** One page of a paginated list; the envelope interceptor turns it into `data` + `meta`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PaginationMeta,
  ) {}

  static of<T>(items: T[], totalCount: number, page: number, limit: number): Page<T> {
    const pageCount = Math.ceil(totalCount / limit);
    return new Page(items, {
      total_count: totalCount,
      page_count: pageCount,
      current_page: page,
      limit,
      has_next_page: page < pageCount,
      has_previous_page: page > 1,
    });
  }

  /** The page a list read (`ListPages`) found for `list`. */
  static from<T>(result: { items: T[]; total: number }, list: { page: number; limit: number }) {
    return Page.of(result.items, result.total, list.page, list.limit);
  }

  map<U>(mapper: (item: T) => U): Page<U> {
    return new Page(this.items.map(mapper), this.meta);
  }
}
