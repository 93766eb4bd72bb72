import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { REDIS } from '@/common/redis/redis.module';
import { RedisConnections } from '@/common/redis/redis-connections';

@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Optional() @Inject(REDIS) private readonly redis: RedisConnections | null,
  ) {}

  get configured(): boolean {
    return Boolean(this.redis);
  }

  async ping(timeoutMs: number): Promise<HealthIndicatorResult<'redis'>> {
    const session = this.indicators.check('redis');
    try {
      await this.redis!.ping(timeoutMs);
      return session.up();
    } catch (error) {
      return session.down((error as Error).message);
    }
  }
}
