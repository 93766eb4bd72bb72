import { ValidationFailedError } from '@/common/http/api-error';
import { usagePeriod } from './usage-period';

const NOW = new Date('2026-11-26T12:00:00Z');

function refusal(bounds: { from?: string; to?: string }, timeZone = 'UTC'): string | string[] {
  try {
    usagePeriod(bounds, NOW, timeZone);
  } catch (error) {
    return (error as ValidationFailedError).messages;
  }
  throw new Error('the period was accepted');
}

const iso = ({ starts, ends }: { starts: Date; ends: Date }) => [
  starts.toISOString(),
  ends.toISOString(),
];

describe('usage period', () => {
  it('covers this calendar month by default', () => {
    expect(iso(usagePeriod({}, NOW, 'UTC'))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    ]);
  });

  it('takes the month of the team time zone, across a year end', () => {
    // 23:30 UTC on 31 December is already January in Lagos.
    const newYear = new Date('2026-12-31T23:30:00Z');
    expect(iso(usagePeriod({}, newYear, 'Africa/Lagos'))).toEqual([
      '2026-12-31T23:00:00.000Z',
      '2027-01-31T23:00:00.000Z',
    ]);
  });

  it('starts days at their midnight in the time zone and keeps date-times as instants', () => {
    const period = usagePeriod(
      { from: '2026-11-02', to: '2026-11-03T10:30:00+01:00' },
      NOW,
      'Africa/Lagos',
    );
    expect(iso(period)).toEqual(['2026-11-01T23:00:00.000Z', '2026-11-03T09:30:00.000Z']);
  });

  it('defaults the bound not given', () => {
    expect(iso(usagePeriod({ from: '2026-11-20' }, NOW, 'UTC'))[1]).toBe(
      '2026-12-01T00:00:00.000Z',
    );
    expect(iso(usagePeriod({ to: '2026-11-10' }, NOW, 'UTC'))[0]).toBe('2026-11-01T00:00:00.000Z');
  });

  it('refuses a period that ends where or before it starts', () => {
    expect(refusal({ from: '2026-11-10', to: '2026-11-10' })).toEqual(['to: must be after from']);
    expect(refusal({ from: '2026-11-10', to: '2026-11-09' })).toEqual(['to: must be after from']);
    expect(refusal({ to: '2026-10-15' })).toEqual(['to: must be after from']);
  });

  it('allows 366 days and refuses 367', () => {
    expect(() => usagePeriod({ from: '2027-01-01', to: '2028-01-02' }, NOW, 'UTC')).not.toThrow();
    expect(refusal({ from: '2027-01-01', to: '2028-01-03' })).toEqual([
      'to: a period covers at most 366 days',
    ]);
  });

  it('counts the days a period touches, so date-times cannot stretch it', () => {
    expect(refusal({ from: '2027-01-01T12:00:00Z', to: '2028-01-02T12:00:00Z' }, 'UTC')).toEqual([
      'to: a period covers at most 366 days',
    ]);
  });

  it('refuses dates before the year 2000', () => {
    expect(refusal({ from: '1900-01-01' })).toEqual(['from: must be in the year 2000 or later']);
  });
});
