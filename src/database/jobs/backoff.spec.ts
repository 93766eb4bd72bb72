import { nextAttemptAt } from './backoff';

const now = new Date('2026-11-23T00:00:00.000Z');
const day = new Date(now.getTime() + 86_400_000);
const delayS = (attempts: number, random: number) =>
  (nextAttemptAt(attempts, now, day, 10, () => random)!.getTime() - now.getTime()) / 1000;

describe('retry backoff', () => {
  it('doubles from the first retry delay, jittered between half and all of it', () => {
    expect(delayS(1, 1)).toBe(10);
    expect(delayS(1, 0)).toBe(5);
    expect(delayS(2, 1)).toBe(20);
    expect(delayS(3, 1)).toBe(40);
  });

  it('never waits more than an hour between attempts', () => {
    expect(delayS(40, 1)).toBe(3600);
  });

  it('gives up once the next attempt would fall after the retry window', () => {
    const soon = new Date(now.getTime() + 7_000);
    expect(nextAttemptAt(1, now, soon, 10, () => 1)).toBeNull();
    expect(nextAttemptAt(1, now, soon, 10, () => 0)).not.toBeNull();
  });
});
