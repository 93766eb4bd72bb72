import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one suite: a throwaway PostgreSQL database on the server of
 * `postgresUrl` (default TEST_POSTGRES_URL), dropped afterwards, or a fresh SQLite file when
 * there is no such URL (pass '' to ask for SQLite whatever the environment says).
 */
export async function createTestDatabase(
  postgresUrl = process.env.TEST_POSTGRES_URL,
): Promise<TestDatabase> {
  if (!postgresUrl) {
    const directory = mkdtempSync(join(tmpdir(), 'console-test-'));
    return {
      url: `sqlite:${join(directory, 'console.sqlite')}`,
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const name = `console_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
