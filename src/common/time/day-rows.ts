import type { Dialect } from '@/database/sql/dialect';
import type { SqlParams } from '@/database/sql/params';
import type { ReportDay } from './calendar-days';

/**
 * The rows of a `WITH days (day, starts, ends) AS (VALUES …)` list: each day with its bounds,
 * computed in the team's time zone here (so that both engines count the same days), bound as
 * parameters of `p`.
 */
export function dayRows(p: SqlParams, dialect: Dialect, days: readonly ReportDay[]): string {
  return days
    .map(({ date, starts, ends }) => {
      const day = p.add(date);
      return `(${day}, ${dialect.timeParam(p.add(starts))}, ${dialect.timeParam(p.add(ends))})`;
    })
    .join(', ');
}
