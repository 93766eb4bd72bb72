import { randomUUID } from 'node:crypto';
import { Logger, OnModuleDestroy } from '@nestjs/common';
import { RedisConnections } from '../redis/redis-connections';
import { requireRedis } from '../redis/redis-unavailable';
import { StreamSlots } from './ports';

// Drops expired leases, then takes one if the subject holds fewer than the limit.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * Slots counted in Redis, so the per-key limit holds across instances: a sorted set per subject,
 * one member per open stream, scored by lease expiry. Each instance renews the leases of its own
 * streams three times per lease; the slots of an instance that died expire within one lease
 * (STREAM_SLOT_LEASE_MS).
 */
export class RedisStreamSlots implements StreamSlots, OnModuleDestroy {
  private readonly logger = new Logger(RedisStreamSlots.name);
  private readonly local = new Map<string, { subject: string }>();
  private readonly renewer: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisConnections,
    private readonly leaseMs: number,
  ) {
    this.renewer = setInterval(() => void this.renew(), leaseMs / 3).unref();
  }

  async acquire(subject: string, limit: number): Promise<(() => void) | null> {
    const slot = randomUUID();
    const now = Date.now();
    const key = this.redis.key('slots', subject);
    const taken = await requireRedis(() =>
      this.redis.commands.eval(
        ACQUIRE,
        1,
        key,
        now,
        limit,
        now + this.leaseMs,
        slot,
        this.leaseMs * 2,
      ),
    );
    if (taken !== 1) {
      return null;
    }
    this.local.set(slot, { subject });
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.local.delete(slot);
      this.redis.commands.zrem(key, slot).catch((error: unknown) => {
        // The lease runs out by itself if Redis cannot be told now.
        this.logger.warn({ err: error, subject }, 'Could not release a stream slot');
      });
    };
  }

  async held(subject?: string): Promise<number> {
    if (subject === undefined) {
      return new Set([...this.local.values()].map((slot) => slot.subject)).size;
    }
    return requireRedis(() =>
      this.redis.commands.zcount(this.redis.key('slots', subject), Date.now(), '+inf'),
    );
  }

  onModuleDestroy(): void {
    clearInterval(this.renewer);
  }

  private async renew(): Promise<void> {
    if (this.local.size === 0) {
      return;
    }
    const expiry = Date.now() + this.leaseMs;
    const pipeline = this.redis.commands.pipeline();
    for (const [slot, { subject }] of this.local) {
      const key = this.redis.key('slots', subject);
      pipeline.zadd(key, 'XX', expiry, slot).pexpire(key, this.leaseMs * 2);
    }
    try {
      await pipeline.exec();
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not renew stream slot leases');
    }
  }
}
