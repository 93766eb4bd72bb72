import { Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from '@/config/environment';
import { RedisConnections } from './redis-connections';

/** The instance's Redis connections, or null in embedded mode (no REDIS_URL). */
export const REDIS = Symbol('REDIS');

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [ConfigService],
      useFactory: (
        config: ConfigService<Environment, true>,
      ): Promise<RedisConnections | null> | null => {
        const url = config.get('REDIS_URL', { infer: true });
        return url
          ? RedisConnections.connect(url, config.get('REDIS_KEY_PREFIX', { infer: true }))
          : null;
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
