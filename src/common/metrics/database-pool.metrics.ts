import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { postgresPool } from '@/database/postgres-pool';
import { MetricsService } from './metrics.service';

/** PostgreSQL's connection pool, as pg reports it; SQLite has no pool (one connection). */
@Injectable()
export class DatabasePoolMetrics {
  constructor(dataSource: DataSource, metrics: MetricsService) {
    const pool = postgresPool(dataSource);
    if (!pool) {
      return;
    }
    metrics.gauge(
      'console_db_pool_connections',
      'Open PostgreSQL connections',
      () => pool.totalCount,
    );
    metrics.gauge(
      'console_db_pool_busy',
      'PostgreSQL connections running a query or transaction',
      () => pool.totalCount - pool.idleCount,
    );
    metrics.gauge(
      'console_db_pool_waiting',
      'Queries waiting for a free PostgreSQL connection',
      () => pool.waitingCount,
    );
    metrics.gauge(
      'console_db_pool_max',
      'Largest number of PostgreSQL connections (DATABASE_POOL_SIZE)',
      () => pool.options.max,
    );
  }
}
