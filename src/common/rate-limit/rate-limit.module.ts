import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '@/config/config.module';
import { REDIS } from '../redis/redis.module';
import { RedisConnections } from '../redis/redis-connections';
import { FixedWindowStorage } from './fixed-window-storage';

/** One budget per caller: in process memory, or in Redis so that it holds across instances. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService, REDIS],
      useFactory: (config: AppConfig, redis: RedisConnections | null) => ({
        throttlers: [
          {
            name: 'default',
            limit: config.get('RATE_LIMIT_MAX', { infer: true }),
            ttl: config.get('RATE_LIMIT_WINDOW_S', { infer: true }) * 1000,
          },
        ],
        storage: redis
          ? new ThrottlerStorageRedisService(redis.commands)
          : new FixedWindowStorage(),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
