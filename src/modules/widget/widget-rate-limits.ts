import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { RedisConnections } from '@/common/redis/redis-connections';
import { REDIS } from '@/common/redis/redis.module';
import { requireRedis } from '@/common/redis/redis-unavailable';
import { AppConfig } from '@/config/app-config';

const WINDOW_MS = 60_000;
const NAME = 'widget';

/**
 * What a web chat's visitors may do a minute (WIDGET_RATE_LIMIT_MAX): per visitor, and per IP
 * address, since anyone can make visitors. Counted in the rate limiter's storage (process memory,
 * or Redis across instances). The Origin check is no fence against scripts; these are.
 */
@Injectable()
export class WidgetRateLimits {
  private readonly limit: number;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Optional() @Inject(REDIS) private readonly redis: RedisConnections | null,
    config: AppConfig,
  ) {
    this.limit = config.publicSurface.widgetRateLimitMax;
  }

  /** Counts one more for the request's address and, when known, its visitor; 429 beyond. */
  async take(req: Request, res: Response, visitorId?: string): Promise<void> {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const subjects = [`ip:${ip}`, ...(visitorId ? [`visitor:${visitorId}`] : [])];
    for (const subject of subjects) {
      const { isBlocked, timeToBlockExpire } = await requireRedis(() =>
        this.storage.increment(this.keyFor(subject), WINDOW_MS, this.limit, WINDOW_MS, NAME),
      );
      if (isBlocked) {
        res.setHeader('Retry-After', Math.max(1, timeToBlockExpire));
        const who = subject.startsWith('ip:') ? 'this address' : 'this visitor';
        throw Errors.tooManyRequests(
          `At most ${this.limit} web chat messages a minute from ${who} (WIDGET_RATE_LIMIT_MAX)`,
        );
      }
    }
  }

  private keyFor(subject: string): string {
    return this.redis ? this.redis.key('rate', NAME, subject) : `rate:${NAME}:${subject}`;
  }
}
