import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { TEMPLATE_DIR_VARIABLE, TEMPLATE_PREFIX_VARIABLE, withAdmin } from './template-location';
import { TestDatabase } from './test-database';

/** One template per Jest worker: a worker runs one suite at a time, so none races to make it. */
const workerId = () => process.env.JEST_WORKER_ID ?? '0';

async function migrateEmpty(url: string): Promise<void> {
  // An empty database holds no secrets for the migrations to reseal: any key does.
  const dataSource = new DataSource(dataSourceOptions(url, randomBytes(32)));
  await dataSource.initialize();
  try {
    await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

async function sqliteCopy(templateDir: string): Promise<TestDatabase> {
  const template = join(templateDir, `template-${workerId()}.sqlite`);
  if (!existsSync(template)) {
    const building = `${template}.${process.pid}.building`;
    await migrateEmpty(`sqlite:${building}`);
    // Closed cleanly, the file holds everything (the write-ahead log was checkpointed away).
    renameSync(building, template);
  }
  const directory = mkdtempSync(join(tmpdir(), 'console-test-'));
  const file = join(directory, 'console.sqlite');
  copyFileSync(template, file);
  return {
    url: `sqlite:${file}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

function databaseUrl(postgresUrl: string, name: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function postgresCopy(postgresUrl: string, prefix: string): Promise<TestDatabase> {
  const template = `${prefix}_${workerId()}`;
  const name = `console_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(postgresUrl, async (admin) => {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${template}`);
      await migrateEmpty(databaseUrl(postgresUrl, template));
    }
    // A template must have no open connection while it is copied: the migration's has closed.
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  });
  return {
    url: databaseUrl(postgresUrl, name),
    drop: () =>
      withAdmin(postgresUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined),
      ),
  };
}

/**
 * A database of its own for one application, already migrated: a copy of this worker's migrated
 * template (a SQLite file, or a PostgreSQL database on TEST_POSTGRES_URL's server), so that
 * the application starts without running a migration. Null outside a Jest run that set up
 * templates.
 */
export async function copyMigratedTemplate(
  postgresUrl = process.env.TEST_POSTGRES_URL,
): Promise<TestDatabase | null> {
  const templateDir = process.env[TEMPLATE_DIR_VARIABLE];
  const prefix = process.env[TEMPLATE_PREFIX_VARIABLE];
  if (!templateDir || !prefix) {
    return null;
  }
  return postgresUrl ? postgresCopy(postgresUrl, prefix) : sqliteCopy(templateDir);
}
