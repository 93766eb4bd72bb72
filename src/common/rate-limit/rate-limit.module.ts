import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '@/config/app-config';
import { REDIS } from '../redis/redis.module';
import { RedisConnections } from '../redis/redis-connections';
import { FixedWindowStorage } from './fixed-window-storage';

/** One budget per caller: in process memory, or in Redis so that it holds across instances. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, REDIS],
      useFactory: async (config: AppConfig, redis: RedisConnections | null) => ({
        throttlers: [
          {
            name: 'default',
            limit: config.rateLimit.max,
            ttl: config.rateLimit.windowS * 1000,
          },
        ],
        // The Redis storage (and ioredis with it) is loaded only with REDIS_URL (start-up time).
        storage: redis
          ? new (await import('@nest-lab/throttler-storage-redis')).ThrottlerStorageRedisService(
              redis.commands,
            )
          : new FixedWindowStorage(),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
