import { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  endsAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 10_000;

/**
 * In-process budgets counted in fixed windows, as the Redis storage counts them in cluster mode.
 * The throttler's own memory storage keeps one timestamp per hit and filters them all on every
 * request: with a generous limit that is thousands of entries walked per call.
 */
export class FixedWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private nextSweepAt = 0;

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    this.sweep(now);
    const id = `${throttlerName}:${key}`;
    let window = this.windows.get(id);
    if (!window || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + ttl, blockedUntil: window?.blockedUntil ?? 0 };
      this.windows.set(id, window);
    }
    window.hits++;
    if (window.blockedUntil <= now && window.hits > limit) {
      window.blockedUntil = now + blockDuration;
    }
    const isBlocked = window.blockedUntil > now;
    return Promise.resolve({
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.endsAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    });
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) {
      return;
    }
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [id, window] of this.windows) {
      if (window.endsAt <= now && window.blockedUntil <= now) {
        this.windows.delete(id);
      }
    }
  }
}
