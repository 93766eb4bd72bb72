import { Errors } from '@/common/http/api-error';
import { daysSpanned, localDate, monthOf, startOfDay } from '@/common/time/calendar-days';

/** The most days of TEAM_TIME_ZONE a usage period may touch. */
export const MAX_USAGE_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FIRST_YEAR = 2000;

export interface UsagePeriod {
  starts: Date;
  /** Excluded. */
  ends: Date;
}

/**
 * The period GET /usage covers: `from` included, `to` excluded, each a day of `timeZone` (from its
 * start) or an instant; this calendar month of `timeZone` by default, as the reports count days.
 */
export function usagePeriod(
  bounds: { from?: string; to?: string },
  now: Date,
  timeZone: string,
): UsagePeriod {
  const month = monthOf(now, timeZone);
  const starts =
    bounds.from === undefined ? month.starts : instantOf('from', bounds.from, timeZone);
  const ends = bounds.to === undefined ? month.ends : instantOf('to', bounds.to, timeZone);
  if (ends <= starts) {
    throw Errors.validation(['to: must be after from']);
  }
  const touched = daysSpanned(
    localDate(starts.getTime(), timeZone),
    localDate(ends.getTime() - 1, timeZone),
  );
  // Not a number past the year 9999, which the time zone's calendar cannot name.
  if (!(touched <= MAX_USAGE_DAYS)) {
    throw Errors.validation([`to: a period covers at most ${MAX_USAGE_DAYS} days`]);
  }
  return { starts, ends };
}

function instantOf(name: string, bound: string, timeZone: string): Date {
  if (Number(bound.slice(0, 4)) < FIRST_YEAR) {
    throw Errors.validation([`${name}: must be in the year ${FIRST_YEAR} or later`]);
  }
  return DAY.test(bound) ? startOfDay(bound, timeZone) : new Date(bound);
}
