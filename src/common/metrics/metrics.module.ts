import { Global, Module } from '@nestjs/common';
import { DatabasePoolMetrics } from './database-pool.metrics';
import { MetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';

/** MetricsService for every module to register its gauges and counters in. */
@Global()
@Module({
  providers: [MetricsService, MetricsServer, DatabasePoolMetrics],
  exports: [MetricsService],
})
export class MetricsModule {}
