/** One calendar day of a report: its date, and the instants it starts and ends in the time zone. */
export interface ReportDay {
  date: string;
  starts: Date;
  ends: Date;
}

const DAY_MS = 86_400_000;

/** Minutes `timeZone` is ahead of UTC at `instant` (negative west of Greenwich). */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The calendar date (YYYY-MM-DD) of `instant` in `timeZone`. */
export function localDate(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(instant));
}

/**
 * The instant the day `date` (YYYY-MM-DD) begins in `timeZone`: midnight at the offset in force
 * just before or just after it, whichever is the earliest instant that falls on `date`. So a day
 * next to a daylight-saving change starts at its own midnight, the first of two midnights when
 * the clocks go back, and the first instant that exists when midnight is skipped.
 */
export function startOfDay(date: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  const before = midnightUtc - offsetMinutes(midnightUtc, timeZone) * 60_000;
  const after = midnightUtc - offsetMinutes(before, timeZone) * 60_000;
  const onTheDay = [before, after].filter((instant) => localDate(instant, timeZone) === date);
  return new Date(onTheDay.length > 0 ? Math.min(...onTheDay) : Math.max(before, after));
}

/** The days from `from` to `to` (both YYYY-MM-DD, both included), in `timeZone`. */
export function reportDays(from: string, to: string, timeZone: string): ReportDay[] {
  const days: ReportDay[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= last; day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    const next = new Date(day + DAY_MS).toISOString().slice(0, 10);
    days.push({ date, starts: startOfDay(date, timeZone), ends: startOfDay(next, timeZone) });
  }
  return days;
}

/** How many calendar days `from` to `to` spans, both included. */
export function daysSpanned(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The day after `date` (YYYY-MM-DD). */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The calendar month `instant` falls in, in `timeZone`: from its first day to the next month's. */
export function monthOf(instant: Date, timeZone: string): { starts: Date; ends: Date } {
  const [year, month] = localDate(instant.getTime(), timeZone).split('-').map(Number);
  const first = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
  return {
    starts: startOfDay(first(year, month), timeZone),
    ends: startOfDay(month === 12 ? first(year + 1, 1) : first(year, month + 1), timeZone),
  };
}

/**
 * The days of `timeZone` that the period from `starts` to `ends` (excluded) touches, each cut to
 * the period: a period starting mid-day begins its first day there.
 */
export function daysCovering(starts: Date, ends: Date, timeZone: string): ReportDay[] {
  const days: ReportDay[] = [];
  for (let date = localDate(starts.getTime(), timeZone); ; date = nextDate(date)) {
    const dayStarts = startOfDay(date, timeZone);
    if (dayStarts >= ends) {
      return days;
    }
    const dayEnds = startOfDay(nextDate(date), timeZone);
    days.push({
      date,
      starts: dayStarts < starts ? starts : dayStarts,
      ends: dayEnds > ends ? ends : dayEnds,
    });
  }
}
