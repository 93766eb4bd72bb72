import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { describeDatabase } from '@/config/deployment';
import { ConsoleDataSource, ENTITY_FILES } from './console-data-source';
import { dataSourceOptions } from './data-source-options';
import { migrate } from './migrate';
import { pendingSchemaChanges } from './schema-drift';

const USAGE = 'usage: schema-check [--postgres=<url of a PostgreSQL server>]';

interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

function sqliteDatabase(): ThrowawayDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'console-schema-check-'));
  return {
    url: `sqlite:${join(directory, 'console.sqlite')}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function postgresDatabase(serverUrl: string): Promise<ThrowawayDatabase> {
  const name = `console_schema_check_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * Migrates a throwaway database (a temporary SQLite file, or with `--postgres=<url>` a new
 * database on that server) and fails, listing them, when TypeORM's schema diff has statements
 * for it: then `migration:generate` on an up-to-date database would write them, and the entities
 * do not describe the schema the migrations create. The database is removed in every case.
 */
async function main(args: string[]): Promise<number> {
  const postgres = args.find((arg) => arg.startsWith('--postgres='))?.slice('--postgres='.length);
  if (args.some((arg) => !arg.startsWith('--postgres=')) || postgres === '') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const database = postgres ? await postgresDatabase(postgres) : sqliteDatabase();
  try {
    const dataSource = new ConsoleDataSource({
      ...dataSourceOptions(database.url, randomBytes(32), 2),
      entities: [ENTITY_FILES],
    });
    await dataSource.initialize();
    let changes: string[];
    try {
      await migrate(dataSource);
      changes = await pendingSchemaChanges(dataSource);
    } finally {
      await dataSource.destroy();
    }
    const where = describeDatabase(database.url);
    if (changes.length === 0) {
      process.stdout.write(`No changes: the entities match the migrated schema (${where})\n`);
      return 0;
    }
    process.stdout.write(
      `${changes.length} statement(s): the entities differ from the migrated schema (${where}):\n` +
        changes.map((change) => `  ${change.replace(/\s+/g, ' ').trim()};\n`).join(''),
    );
    return 1;
  } finally {
    await database.drop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `schema-check: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
