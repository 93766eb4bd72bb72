import { Logger } from '@nestjs/common';
import { RateLimitedWarning } from '@/database/rate-limited-warning';

describe('RateLimitedWarning', () => {
  it('logs the first of a burst, then once a period with the count in between, and says when it ends', () => {
    jest.useFakeTimers({ now: 0 });
    const logger = { warn: jest.fn(), log: jest.fn() } as unknown as Logger;
    const warning = new RateLimitedWarning(logger, 1_000);
    try {
      for (let i = 0; i < 5; i++) {
        warning.warn('Redis connection trouble', { code: 'ECONNREFUSED' });
      }
      jest.setSystemTime(1_000);
      warning.warn('Redis connection trouble', { code: 'ECONNREFUSED' });
      expect((logger.warn as jest.Mock).mock.calls).toEqual([
        [{ code: 'ECONNREFUSED' }, 'Redis connection trouble'],
        [{ code: 'ECONNREFUSED', repeated: 4 }, 'Redis connection trouble'],
      ]);
      warning.recovered('Redis reachable again');
      warning.recovered('Redis reachable again');
      expect((logger.log as jest.Mock).mock.calls).toEqual([['Redis reachable again']]);
      warning.warn('Redis connection trouble');
      expect(logger.warn).toHaveBeenCalledTimes(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
