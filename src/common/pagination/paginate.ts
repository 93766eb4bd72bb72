import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ListQueryDto } from './list-query.dto';
import { Page } from './page';
import { dialectOf } from '@/database/sql/dialect';
import { likePattern, SearchColumns, searchCondition } from '@/database/sql/search-condition';
import { parseSort } from './sort';

export interface PaginateOptions extends SearchColumns {
  /** Sortable field name → column expression. */
  sortColumns: Record<string, string>;
  defaultSort: string;
  /** Column used to break ties, so that pages never overlap or skip. */
  tieBreaker: string;
}

/** Applies search, sort and page bounds to `query` and reads one page with its total count. */
export async function paginate<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  list: ListQueryDto,
  options: PaginateOptions,
): Promise<Page<T>> {
  if (list.search) {
    const engine = query.connection.options.type === 'postgres' ? 'postgres' : 'sqlite';
    query.andWhere(searchCondition(dialectOf(engine), options, ':search'), {
      search: likePattern(list.search),
    });
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
