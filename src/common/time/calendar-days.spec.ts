import { daysCovering, daysSpanned, monthOf, reportDays, startOfDay } from './calendar-days';

describe('calendar days', () => {
  it('starts a UTC day at midnight UTC', () => {
    expect(startOfDay('2026-11-26', 'UTC').toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('starts a day east of Greenwich the evening before in UTC', () => {
    expect(startOfDay('2026-11-26', 'Africa/Lagos').toISOString()).toBe('2026-11-25T23:00:00.000Z');
  });

  it('starts a day west of Greenwich in the morning UTC', () => {
    expect(startOfDay('2026-07-01', 'America/New_York').toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    );
  });

  it('gives the day of a daylight-saving change its true length', () => {
    // Europe/Paris moves from UTC+1 to UTC+2 on 29 March 2026: that day lasts 23 hours.
    const [change] = reportDays('2026-03-29', '2026-03-29', 'Europe/Paris');
    expect(change.starts.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(change.ends.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('starts a day whose midnight does not exist at its first instant', () => {
    // America/Santiago skipped from 00:00 to 01:00 on 6 September 2026.
    expect(startOfDay('2026-09-06', 'America/Santiago').toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    );
  });

  it('lists every day of the range, each ending where the next starts', () => {
    const days = reportDays('2026-02-27', '2026-03-02', 'Asia/Tokyo');
    expect(days.map((day) => day.date)).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    days.slice(1).forEach((day, i) => expect(day.starts).toEqual(days[i].ends));
  });

  it('counts both ends of a range', () => {
    expect(daysSpanned('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysSpanned('2026-01-01', '2026-04-02')).toBe(92);
  });
});

describe('months and covered days', () => {
  it('gives the month of an instant in the time zone', () => {
    const { starts, ends } = monthOf(new Date('2026-11-30T23:30:00Z'), 'Africa/Lagos');
    expect([starts.toISOString(), ends.toISOString()]).toEqual([
      '2026-11-30T23:00:00.000Z',
      '2026-12-31T23:00:00.000Z',
    ]);
  });

  it('cuts the first and last day to the period, and keeps a short day short', () => {
    const days = daysCovering(
      new Date('2026-03-28T12:00:00Z'),
      new Date('2026-03-30T10:00:00Z'),
      'Europe/Paris',
    );
    expect(
      days.map(({ date, starts, ends }) => [date, starts.toISOString(), ends.toISOString()]),
    ).toEqual([
      ['2026-03-28', '2026-03-28T12:00:00.000Z', '2026-03-28T23:00:00.000Z'],
      ['2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
      ['2026-03-30', '2026-03-29T22:00:00.000Z', '2026-03-30T10:00:00.000Z'],
    ]);
  });

  it('ends with the last day the period touches', () => {
    const days = daysCovering(
      new Date('2026-11-01T00:00:00Z'),
      new Date('2026-11-03T00:00:00Z'),
      'UTC',
    );
    expect(days.map((day) => day.date)).toEqual(['2026-11-01', '2026-11-02']);
  });
});
