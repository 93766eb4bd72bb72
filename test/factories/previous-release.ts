import { DataSource } from 'typeorm';
import { SecretBox } from '@/config/secret-box';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { migrations } from '@/database/migrations';

/** Writes one row as SQL of the previous release would, column names as the table has them. */
export type RowInsert = (table: string, row: Record<string, unknown>) => Promise<void>;

/** The engines a migration spec runs on: SQLite, and PostgreSQL when TEST_POSTGRES_URL is set. */
export function migrationTargets(): Array<[string, string]> {
  const targets: Array<[string, string]> = [['SQLite', '']];
  if (process.env.TEST_POSTGRES_URL) {
    targets.push(['PostgreSQL', process.env.TEST_POSTGRES_URL]);
  }
  return targets;
}

/**
 * Migrates the database at `url` as the previous release left it (every migration before the
 * `firstNew`-th), lets `seed` write its rows, and closes it: the app started on it afterwards
 * runs the new migrations over real old data.
 */
export async function seedPreviousRelease(
  url: string,
  secretKey: Buffer,
  firstNew: (all: Array<new () => unknown>) => number,
  seed: (insert: RowInsert) => Promise<void>,
): Promise<void> {
  const all = migrations(new SecretBox(secretKey));
  const dataSource = await new DataSource({
    ...dataSourceOptions(url, secretKey, 2),
    migrations: all.slice(0, firstNew(all)),
  }).initialize();
  const insert: RowInsert = async (table, row) => {
    const columns = Object.keys(row);
    const [sql, parameters] = dataSource.driver.escapeQueryWithParameters(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) ` +
        `VALUES (${columns.map((c) => `:${c}`).join(', ')})`,
      row,
      {},
    );
    await dataSource.query(sql, parameters);
  };
  try {
    await migrate(dataSource);
    await seed(insert);
  } finally {
    await dataSource.destroy();
  }
}

/** The JSON list columns of a previous release's workflow, all empty. */
const WORKFLOW_LISTS = [
  'rules',
  'flows',
  'tags',
  'integrations',
  'channels',
  'actions',
  'faq',
  'setup_steps',
];

/**
 * A team with one private workflow and its agents (`[id, test channel code]`), as the previous
 * release stored them, all created at `at`.
 */
export async function insertLegacyTeam(
  insert: RowInsert,
  team: { id: string; name: string; workflowId: string; agents: Array<[string, string]> },
  at: Date | string,
): Promise<void> {
  await insert('teams', { id: team.id, name: team.name, created_at: at });
  await insert('workflows', {
    id: team.workflowId,
    team_id: team.id,
    name: 'Legacy',
    visibility: 'private',
    ...Object.fromEntries(WORKFLOW_LISTS.map((column) => [column, '[]'])),
    created_at: at,
    updated_at: at,
  });
  for (const [id, code] of team.agents) {
    await insert('agents', {
      id,
      team_id: team.id,
      workflow_id: team.workflowId,
      name: 'Legacy',
      description: 'From the previous release',
      test_channel_code: code,
      status: 'development',
      created_at: at,
      updated_at: at,
    });
  }
}
