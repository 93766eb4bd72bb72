import { Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { RedisConnections } from './redis-connections';

/** The instance's Redis connections, or null in embedded mode (no REDIS_URL). */
export const REDIS = Symbol('REDIS');

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig): Promise<RedisConnections | null> | null => {
        const url = config.redis.url;
        return url ? RedisConnections.connect(url, config.redis.keyPrefix) : null;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS) private readonly redis: RedisConnections | null) {}

  onApplicationShutdown(): void {
    this.redis?.close();
  }
}
