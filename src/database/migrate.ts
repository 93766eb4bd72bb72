import { DataSource } from 'typeorm';

/** Any fixed number: the advisory lock that lets one instance at a time migrate. */
const MIGRATION_LOCK_ID = 727_271_001;

/**
 * Runs `work` holding the migration lock. On PostgreSQL, instances that start together (and the
 * migration commands) take turns behind an advisory lock, so two of them never create the same
 * table at once; the later ones find nothing left to do. SQLite has one writer anyway.
 */
export async function withMigrationLock<T>(
  dataSource: DataSource,
  work: () => Promise<T>,
): Promise<T> {
  if (dataSource.options.type !== 'postgres') {
    return work();
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await work();
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lock.release();
  }
}

/** Runs pending migrations, each in its own transaction, under the migration lock. */
export async function migrate(dataSource: DataSource): Promise<void> {
  await withMigrationLock(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
}
