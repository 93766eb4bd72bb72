import type Sqlite from 'better-sqlite3';
import { DataSourceOptions } from 'typeorm';
import { ensureDataDirectory, parseDatabaseUrl } from '@/config/database-url';
import { SecretBox } from '@/config/secret-box';
import { migrations } from './migrations';

const SQLITE_BUSY_TIMEOUT_MS = 5000;

export function dataSourceOptions(
  databaseUrl: string,
  secretKey: Buffer,
  poolSize = 10,
): DataSourceOptions {
  const target = parseDatabaseUrl(databaseUrl);
  const common = {
    migrations: migrations(new SecretBox(secretKey)),
    migrationsRun: false,
    synchronize: false,
    logging: false,
  };
  if (target.kind === 'sqlite') {
    ensureDataDirectory(target);
    return {
      ...common,
      type: 'better-sqlite3',
      database: target.path,
      enableWAL: target.path !== ':memory:',
      timeout: SQLITE_BUSY_TIMEOUT_MS,
      // better-sqlite3 runs on the event loop, so an fsync per commit (FULL) would stall every
      // request for about a millisecond. In WAL mode NORMAL keeps each commit across a crash of the
      // process; only an operating-system crash or power loss can undo the last few.
      prepareDatabase: (db: Sqlite.Database) => {
        db.pragma('synchronous = NORMAL');
        // A checkpoint runs inside the commit that crosses the threshold and copies every page the
        // log holds: with 10,000 pages (~40 MB of log) instead of 1,000, the pages every message
        // rewrites (its conversation, the index tails) are copied once per far more commits.
        db.pragma('wal_autocheckpoint = 10000');
        // SQLite's own lower() folds ASCII only; searches need Unicode, as PostgreSQL's gives.
        db.function('lower', { deterministic: true }, (text: unknown) =>
          typeof text === 'string' ? text.toLowerCase() : text,
        );
      },
    };
  }
  return { ...common, type: 'postgres', url: target.url, extra: { max: poolSize } };
}
