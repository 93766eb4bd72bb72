import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newId } from '@/common/ids';
import { SecretBox } from '@/config/secret-box';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { migrations } from '@/database/migrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import {
  insertLegacyTeam,
  migrationTargets,
  RowInsert,
  seedPreviousRelease,
} from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';

const NOW = '2026-11-20 10:00:00.000';
const ID = Object.fromEntries(
  ['team', 'workflow', 'agent', 'api', 'mcp', 'named', 'bare', 'empty', 'mcp-tool'].map((name) => [
    name,
    newId(),
  ]),
);
const FIRST_NEW = 'ResponseMappingFields1733198400000';
/** The earlier name → path form, as the previous release stored it. */
const NAMED = { order_status: '$.data.status', total: 'data.order.total', path: '$.data' };

const toolConfig = (mapping: Record<string, unknown> | undefined) => ({
  http_method: 'GET',
  url_template: '/orders/{id}',
  ...(mapping ? { response_mapping: mapping } : {}),
  auth_type: 'none',
  timeout: 30,
});

async function seed(insert: RowInsert, box: SecretBox): Promise<void> {
  await insertLegacyTeam(
    insert,
    { id: ID.team, name: 'legacy', workflowId: ID.workflow, agents: [[ID.agent, 'LEGACY05']] },
    NOW,
  );
  const integration = (id: string, family: string, config: Record<string, unknown>) =>
    insert('integrations', {
      id,
      team_id: ID.team,
      agent_id: ID.agent,
      family,
      type: family,
      name: config.name,
      status: 'connected',
      is_connected: 1,
      config: JSON.stringify(config),
      secrets: box.sealJson({}),
      created_at: NOW,
      updated_at: NOW,
    });
  await integration(ID.api, 'custom_api', {
    name: 'Shop',
    base_url: 'https://shop.example/v1',
    auth_type: 'none',
  });
  await integration(ID.mcp, 'mcp_server', {
    name: 'Tools',
    server_url: 'https://mcp.example/mcp',
    transport: 'streamable_http',
    auth_type: 'none',
  });
  const action = (id: string, integrationId: string, config: Record<string, unknown>) =>
    insert('actions', {
      id,
      team_id: ID.team,
      agent_id: ID.agent,
      integration_id: integrationId,
      action_name: `tool_${id.slice(-6)}`,
      name: `Tool ${id.slice(-6)}`,
      category: 'custom',
      is_enabled: 1,
      is_available: 1,
      require_human_approval: 0,
      config: JSON.stringify(config),
      secrets: box.sealJson({}),
      created_at: NOW,
      updated_at: NOW,
    });
  await action(ID.named, ID.api, toolConfig(NAMED));
  await action(ID.bare, ID.api, toolConfig(undefined));
  await action(ID.empty, ID.api, toolConfig({}));
  // Not a custom API tool: whatever its config holds is not a mapping.
  await action(ID['mcp-tool'], ID.mcp, { response_mapping: { a: '$.a' } });
}

describe.each(migrationTargets())('response mappings moved under fields, on %s', (_name, url) => {
  let database: TestDatabase;
  let secretKey: Buffer;
  let t: TestApp | undefined;

  const withDataSource = async <T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> => {
    const dataSource = await new DataSource({
      ...dataSourceOptions(database.url, secretKey, 2),
      migrations: migrations(new SecretBox(secretKey)),
    }).initialize();
    try {
      return await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  };
  const mappings = (dataSource: DataSource) =>
    dataSource
      .query<Array<{ id: string; config: string }>>('SELECT "id", "config" FROM "actions"')
      .then((rows) =>
        Object.fromEntries(
          rows.map((row) => [row.id, JSON.parse(row.config).response_mapping as unknown]),
        ),
      );

  beforeAll(async () => {
    database = await createTestDatabase(url);
    secretKey = randomBytes(32);
    await seedPreviousRelease(
      database.url,
      secretKey,
      (all) => all.findIndex((migration) => migration.name === FIRST_NEW),
      (insert) => seed(insert, new SecretBox(secretKey)),
    );
    t = await startTestApp({
      DATABASE_URL: database.url,
      CONSOLE_SECRET_KEY: secretKey.toString('hex'),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const migrated = {
    [ID.named]: { fields: NAMED },
    [ID.bare]: undefined,
    [ID.empty]: {},
    [ID['mcp-tool']]: { a: '$.a' },
  };

  it('moves each name → path mapping under fields, leaving the rest as they were', async () => {
    expect(await mappings(t!.dataSource())).toEqual(migrated);
    const key = (await t!.createKey('legacy', ['*'])).key;
    const tools = await t!
      .api(key)
      .get(`${API}/agents/${ID.agent}/integrations/custom_api/${ID.api}/tools`)
      .expect(200);
    expect(tools.body.data.map((tool: { id: string }) => tool.id).sort()).toEqual(
      [ID.named, ID.bare, ID.empty].sort(),
    );
  });

  it('gives the earlier form back on the way down, and moves it again on the way up', async () => {
    await t!.close();
    t = undefined;
    await withDataSource(async (dataSource) => {
      // A mapping written in the new shape only: the earlier form has no place for its path or text.
      const [sql, parameters] = dataSource.driver.escapeQueryWithParameters(
        'UPDATE "actions" SET "config" = :config WHERE "id" = :id',
        {
          id: ID.empty,
          config: JSON.stringify(
            toolConfig({ path: '$.data', success_message: 'Your order is {{status}}' }),
          ),
        },
        {},
      );
      await dataSource.query(sql, parameters);
      const all = migrations(new SecretBox(secretKey));
      const first = all.findIndex((migration) => migration.name === FIRST_NEW);
      for (let undone = all.length; undone > first; undone--) {
        await dataSource.undoLastMigration();
      }
      expect(await mappings(dataSource)).toEqual({
        [ID.named]: NAMED,
        [ID.bare]: undefined,
        [ID.empty]: {},
        [ID['mcp-tool']]: { a: '$.a' },
      });
      await migrate(dataSource);
      expect(await mappings(dataSource)).toEqual(migrated);
    });
  });
});
