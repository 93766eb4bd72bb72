import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '@/config/config.module';

@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: AppConfig) => ({
        throttlers: [
          {
            name: 'default',
            limit: config.get('RATE_LIMIT_MAX', { infer: true }),
            ttl: config.get('RATE_LIMIT_WINDOW_S', { infer: true }) * 1000,
          },
        ],
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
