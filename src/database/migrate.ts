import { DataSource } from 'typeorm';

/** Any fixed number: the advisory lock that lets one instance at a time migrate. */
const MIGRATION_LOCK_ID = 727_271_001;

/**
 * Runs pending migrations. On PostgreSQL, instances that start together take turns behind an
 * advisory lock, so two of them never create the same table at once; the later ones find
 * nothing left to do.
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lock.release();
  }
}
