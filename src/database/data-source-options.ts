import { mkdirSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { DataSourceOptions } from 'typeorm';
import { parseDatabaseUrl } from '@/config/database-url';
import { MIGRATIONS } from './migrations';

const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * TypeORM switches sqlite3 into verbose mode, which wraps every statement to keep long stack
 * traces: a cost on every query, paid for debugging only.
 */
const sqliteWithoutTracing = Object.assign(Object.create(sqlite3) as typeof sqlite3, {
  verbose: () => sqlite3,
});

export function dataSourceOptions(databaseUrl: string, poolSize = 10): DataSourceOptions {
  const target = parseDatabaseUrl(databaseUrl);
  const common = {
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
  };
  if (target.kind === 'sqlite') {
    if (target.path !== ':memory:') {
      mkdirSync(target.dataDirectory, { recursive: true });
    }
    return {
      ...common,
      type: 'sqlite',
      driver: sqliteWithoutTracing,
      database: target.path,
      enableWAL: target.path !== ':memory:',
      busyTimeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  return { ...common, type: 'postgres', url: target.url, extra: { max: poolSize } };
}
