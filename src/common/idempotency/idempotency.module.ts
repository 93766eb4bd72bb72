import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyRecordEntity } from './idempotency-record.entity';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';
import { WritePhase } from './write-phase';

@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecordEntity])],
  providers: [IdempotencyStore, IdempotencyInterceptor, WritePhase],
  exports: [IdempotencyStore, IdempotencyInterceptor, WritePhase],
})
export class IdempotencyModule {}
