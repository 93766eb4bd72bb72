import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Set by the global setup: where this run keeps its migrated templates (a directory for the
 * SQLite files, a name prefix for the PostgreSQL databases), removed by the global teardown.
 */
export const TEMPLATE_DIR_VARIABLE = 'CONSOLE_TEST_TEMPLATE_DIR';
export const TEMPLATE_PREFIX_VARIABLE = 'CONSOLE_TEST_TEMPLATE_PREFIX';

export async function withAdmin<T>(
  postgresUrl: string,
  work: (admin: Client) => Promise<T>,
): Promise<T> {
  const admin = new Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** For the global setup: a directory and a database name prefix for this run's templates. */
export function newTemplateLocation(): { dir: string; prefix: string } {
  return {
    dir: mkdtempSync(join(tmpdir(), 'console-test-templates-')),
    prefix: `console_template_${randomBytes(4).toString('hex')}`,
  };
}

/** For the global teardown: removes this run's templates. */
export async function dropTemplates(
  dir: string,
  prefix: string,
  postgresUrl = process.env.TEST_POSTGRES_URL,
): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  if (!postgresUrl) {
    return;
  }
  await withAdmin(postgresUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${prefix}\\_%`],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}
