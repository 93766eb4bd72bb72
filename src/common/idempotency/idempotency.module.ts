import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';
import { WritePhase } from './write-phase';

@Module({
  providers: [IdempotencyStore, IdempotencyInterceptor, WritePhase],
  exports: [IdempotencyStore, IdempotencyInterceptor, WritePhase],
})
export class IdempotencyModule {}
