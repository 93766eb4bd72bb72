import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RateLimitedWarning } from './rate-limited-warning';
import { isDatabaseUnavailable } from './errors';
import { postgresPool } from './postgres-pool';

const trouble = new RateLimitedWarning(new Logger('Database'));

/** Logs, rate-limited, that the database cannot be reached; other errors are not its business. */
export function reportDatabaseTrouble(error: unknown): void {
  if (isDatabaseUnavailable(error)) {
    const { code, message } = error as { code?: string; message?: string };
    trouble.warn('The database is unreachable; requests that need it answer 503', {
      reason: code ?? message,
    });
  }
}

/**
 * PostgreSQL: a pooled connection that breaks while idle (the server restarted) is reported, and a
 * new connection made after trouble says the database is back.
 */
export function watchDatabaseConnections(dataSource: DataSource): void {
  const pool = postgresPool(dataSource);
  if (!pool) {
    return;
  }
  pool.on('error', (error) => reportDatabaseTrouble(error));
  pool.on('connect', () => trouble.recovered('The database is reachable again'));
}
