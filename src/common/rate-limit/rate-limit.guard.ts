import { ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Errors } from '../http/api-error';
import { CounterLike, MetricsService } from '../metrics/metrics.service';
import { RedisConnections } from '../redis/redis-connections';
import { REDIS } from '../redis/redis.module';
import { requireRedis } from '../redis/redis-unavailable';
import { PRINCIPAL_RESOLVER, PrincipalResolver } from './principal-resolver';

/**
 * The stock guard counts per route and per IP, sends the reset as seconds-to-go and leaves the
 * headers off a 429. This one keeps one budget per API key (per IP for callers without a valid
 * key), sends the reset as a Unix time, and sets every header on every response it sees.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(PRINCIPAL_RESOLVER) private readonly principals: PrincipalResolver,
    @Optional() @Inject(REDIS) private readonly redis: RedisConnections | null,
    metrics: MetricsService,
  ) {
    super(options, storage, reflector);
    this.refusals = metrics.counter(
      'console_rate_limit_refusals_total',
      'Requests refused with 429 for exceeding RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_S',
    );
  }

  private readonly refusals: CounterLike;

  protected override async getTracker(req: Request): Promise<string> {
    const principal = await this.principals.resolvePrincipal(req);
    return principal
      ? `key:${principal.keyId}`
      : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  }

  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    // In cluster mode the counters share a Redis with other deployments: keys carry the prefix.
    return this.redis ? this.redis.key('rate', name, tracker) : `rate:${name}:${tracker}`;
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration } = request;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const tracker = await this.getTracker(req);
    const key = this.generateKey(context, tracker, throttler.name ?? 'default');
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await requireRedis(() =>
      this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default'),
    );
    const nowSeconds = Math.floor(Date.now() / 1000);
    const secondsLeft = isBlocked ? Math.max(timeToExpire, timeToBlockExpire) : timeToExpire;
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', isBlocked ? 0 : Math.max(0, limit - totalHits));
    res.setHeader('X-RateLimit-Reset', nowSeconds + Math.max(1, secondsLeft));
    if (isBlocked) {
      res.setHeader('Retry-After', Math.max(1, timeToBlockExpire));
      this.refusals.inc();
      throw Errors.tooManyRequests(`Rate limit of ${limit} requests per ${ttl / 1000} s exceeded`);
    }
    return true;
  }
}
