import { minutesFromText } from './setup-minutes';

describe('minutesFromText', () => {
  it.each([
    ['15', 15],
    [' 15 ', 15],
    ['15 min', 15],
    ['15 mins', 15],
    ['15 minutes', 15],
    ['15m', 15],
    ['15 Minutes', 15],
    ['1 hour', 60],
    ['1 hr', 60],
    ['1h', 60],
    ['2 hours', 120],
    ['1.5 hours', 90],
    ['1h 30m', 90],
    ['1h30m', 90],
    ['1 hour 30 minutes', 90],
    ['1 hour and 30 minutes', 90],
    ['1 hour, 30 min.', 90],
    ['about 10 minutes', 10],
    ['~5 min', 5],
    ['1 day', 1440],
    ['0', 0],
  ])('reads %j as %d minutes', (text, minutes) => {
    expect(minutesFromText(text)).toBe(minutes);
  });

  it.each([
    '',
    'soon',
    'a few minutes',
    '10-15 minutes',
    '15 parsecs',
    '1h 30',
    'minutes',
    '10 minutes or so',
    '9999999',
    '400 days',
  ])('reads %j as no number of minutes', (text) => {
    expect(minutesFromText(text)).toBeNull();
  });
});
