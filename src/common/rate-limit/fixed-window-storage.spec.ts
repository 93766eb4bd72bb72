import { FixedWindowStorage } from './fixed-window-storage';

describe('FixedWindowStorage', () => {
  afterEach(() => jest.useRealTimers());

  it('counts hits in a window, blocks past the limit, and starts afresh when both expire', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const storage = new FixedWindowStorage();
    const hit = () => storage.increment('key:a', 60_000, 2, 60_000, 'default');

    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect((await hit()).isBlocked).toBe(false);
    jest.advanceTimersByTime(10_000);
    expect(await hit()).toEqual({
      totalHits: 3,
      timeToExpire: 50,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    jest.advanceTimersByTime(60_000);
    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('keeps one budget per key and per throttler', async () => {
    const storage = new FixedWindowStorage();
    await storage.increment('key:a', 60_000, 5, 60_000, 'default');
    expect((await storage.increment('key:b', 60_000, 5, 60_000, 'default')).totalHits).toBe(1);
    expect((await storage.increment('key:a', 60_000, 5, 60_000, 'other')).totalHits).toBe(1);
    expect((await storage.increment('key:a', 60_000, 5, 60_000, 'default')).totalHits).toBe(2);
  });
});
