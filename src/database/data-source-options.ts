import { mkdirSync } from 'node:fs';
import { DataSourceOptions } from 'typeorm';
import { parseDatabaseUrl } from '@/config/database-url';
import { MIGRATIONS } from './migrations';

const SQLITE_BUSY_TIMEOUT_MS = 5000;

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
      type: 'better-sqlite3',
      database: target.path,
      enableWAL: target.path !== ':memory:',
      timeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  return { ...common, type: 'postgres', url: target.url, extra: { max: poolSize } };
}
