import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  Optional,
  SetMetadata,
} from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Errors } from '../http/api-error';
import { RouteMetadata } from '../http/route-metadata';
import { CounterLike, MetricsService } from '../metrics/metrics.service';
import { RedisConnections } from '../redis/redis-connections';
import { REDIS } from '../redis/redis.module';
import { requireRedis } from '../redis/redis-unavailable';
import { PRINCIPAL_RESOLVER, PrincipalResolver } from './principal-resolver';

const SKIP_RATE_LIMIT = 'console:skip-rate-limit';

/** The route is never counted nor refused (health probes). */
export const SkipRateLimit = () => SetMetadata(SKIP_RATE_LIMIT, true);

/**
 * One budget per API key (per IP for callers without a valid key), in the throttler's storage
 * (process memory, or Redis across instances). Unlike the stock ThrottlerGuard, which counts per
 * route and per IP and resolves every option again on each request, it counts per caller, sends
 * the reset as a Unix time, and sets every header on every response it sees.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly throttler: ThrottlerOptions;
  private readonly refusals: CounterLike;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly metadata: RouteMetadata,
    @Inject(PRINCIPAL_RESOLVER) private readonly principals: PrincipalResolver,
    @Optional() @Inject(REDIS) private readonly redis: RedisConnections | null,
    metrics: MetricsService,
  ) {
    [this.throttler] = Array.isArray(options) ? options : options.throttlers;
    this.refusals = metrics.counter(
      'console_rate_limit_refusals_total',
      'Requests refused with 429 for exceeding RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_S',
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.metadata.get<boolean>(SKIP_RATE_LIMIT, context)) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const limit = this.throttler.limit as number;
    const ttl = this.throttler.ttl as number;
    const name = this.throttler.name ?? 'default';
    const key = this.keyFor(name, await this.trackerOf(req));
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await requireRedis(() =>
      this.storage.increment(key, ttl, limit, ttl, name),
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

  private async trackerOf(req: Request): Promise<string> {
    const principal = await this.principals.resolvePrincipal(req);
    return principal
      ? `key:${principal.keyId}`
      : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  }

  /** In cluster mode the counters share a Redis with other deployments: keys carry the prefix. */
  private keyFor(name: string, tracker: string): string {
    return this.redis ? this.redis.key('rate', name, tracker) : `rate:${name}:${tracker}`;
  }
}
