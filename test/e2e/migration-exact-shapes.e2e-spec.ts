import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from '@/config/secret-box';
import { newId } from '@/common/ids';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { migrations } from '@/database/migrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { recordSecret } from '../support/log-capture';
import { McpTestServer, startMcpTestServer } from '../support/mcp-test-server';

const NOW = '2026-11-20 10:00:00.000';
const ID = Object.fromEntries(
  [
    'team',
    'agent',
    'wf-hours',
    'wf-plain',
    'wf-words',
    'wf-vague',
    'wf-unset',
    'api-key-api',
    'mcp-api-key',
    'mcp-custom',
    'mcp-empty-custom',
    'tool-legacy',
  ].map((name) => [name, newId()]),
);
const TEAM = ID.team;
const AGENT = ID.agent;
const SECRETS = {
  apiKey: 'legacy-custom-api-key-1',
  mcpKey: 'legacy-mcp-api-key-2',
  mcpHeader: 'legacy-mcp-header-token-3',
  toolHeader: 'legacy-tool-header-token-4',
};

type Row = Record<string, unknown>;

/** The database as the previous release left it: its migrations only, rows in their shapes. */
async function legacyDatabase(url: string, secretKey: Buffer, mcpUrl: string): Promise<void> {
  const box = new SecretBox(secretKey);
  const dataSource = await new DataSource({
    ...dataSourceOptions(url, secretKey, 2),
    migrations: migrations(box).slice(0, 3),
  }).initialize();
  const insert = async (table: string, row: Row) => {
    const columns = Object.keys(row);
    const [sql, parameters] = dataSource.driver.escapeQueryWithParameters(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) ` +
        `VALUES (${columns.map((c) => `:${c}`).join(', ')})`,
      row,
      {},
    );
    await dataSource.query(sql, parameters);
  };
  const workflow = (name: string, setupTime: string | null, extra: Row = {}) =>
    insert('workflows', {
      id: ID[name],
      team_id: TEAM,
      name,
      visibility: 'private',
      rules: '[]',
      flows: '[]',
      tags: '[]',
      integrations: '[]',
      channels: '[]',
      actions: '[]',
      faq: '[]',
      setup_steps: '[]',
      setup_time: setupTime,
      created_at: NOW,
      updated_at: NOW,
      ...extra,
    });
  const integration = (name: string, family: string, config: Row, secrets: Row) =>
    insert('integrations', {
      id: ID[name],
      team_id: TEAM,
      agent_id: AGENT,
      family,
      type: family,
      name,
      status: 'pending',
      is_connected: 0,
      config: JSON.stringify(config),
      secrets: box.sealJson(secrets),
      created_at: NOW,
      updated_at: NOW,
    });
  try {
    await migrate(dataSource);
    await insert('teams', { id: TEAM, name: 'legacy', created_at: NOW });
    await workflow('wf-hours', '1h 30m', {
      flows: JSON.stringify([
        {
          name: 'Refunds',
          description: null,
          category: 'billing',
          priority: null,
          is_active: true,
          trigger_keywords: [{ keyword: 'refund', weight: null }],
          conversation_steps: [
            { type: 'message', content: 'Order number?', action: null, followup: null },
          ],
        },
      ]),
      guide: JSON.stringify({ youtubeUrl: null, steps: ['Connect'] }),
    });
    await workflow('wf-plain', '15');
    await workflow('wf-words', '2 hours');
    await workflow('wf-vague', 'a few minutes');
    await workflow('wf-unset', null);
    await insert('agents', {
      id: AGENT,
      team_id: TEAM,
      workflow_id: ID['wf-hours'],
      name: 'Legacy',
      description: 'From the previous release',
      test_channel_code: 'LEGACY01',
      status: 'development',
      created_at: NOW,
      updated_at: NOW,
    });
    await integration(
      'api-key-api',
      'custom_api',
      {
        name: 'Shop',
        description: null,
        base_url: null,
        auth_type: 'api_key',
        test_endpoint: null,
      },
      { key: SECRETS.apiKey, header_name: 'X-Shop-Key' },
    );
    await integration(
      'mcp-api-key',
      'mcp_server',
      {
        name: 'Keyed',
        server_url: `${mcpUrl}/mcp`,
        transport: 'streamable_http',
        auth_type: 'api_key',
      },
      { key: SECRETS.mcpKey },
    );
    await integration(
      'mcp-custom',
      'mcp_server',
      {
        name: 'Custom',
        server_url: `${mcpUrl}/mcp`,
        transport: 'streamable_http',
        auth_type: 'custom',
      },
      { headers: { 'X-Shop-Token': SECRETS.mcpHeader, 'X-Shop-Tenant': 'acme' } },
    );
    await integration(
      'mcp-empty-custom',
      'mcp_server',
      {
        name: 'Empty',
        server_url: `${mcpUrl}/mcp`,
        transport: 'streamable_http',
        auth_type: 'custom',
      },
      { headers: {} },
    );
    await insert('actions', {
      id: ID['tool-legacy'],
      team_id: TEAM,
      agent_id: AGENT,
      integration_id: ID['api-key-api'],
      action_name: 'get_order',
      name: 'Get order',
      category: null,
      is_enabled: 1,
      is_available: 1,
      require_human_approval: 0,
      config: JSON.stringify({
        http_method: 'GET',
        url_template: 'https://shop.example/orders/{id}',
        url_params: null,
        body_params: null,
        headers_template: null,
        body_template: null,
        response_mapping: { status: '$.status' },
        auth_type: 'custom',
        timeout: 30,
      }),
      secrets: box.sealJson({ headers: { 'X-Tool-Key': SECRETS.toolHeader } }),
      created_at: NOW,
      updated_at: NOW,
    });
  } finally {
    await dataSource.destroy();
  }
}

const targets: Array<[string, string]> = [['SQLite', '']];
if (process.env.TEST_POSTGRES_URL) {
  targets.push(['PostgreSQL', process.env.TEST_POSTGRES_URL]);
}

describe.each(targets)('the migration to exact shapes, on %s', (_name, postgresUrl) => {
  let database: TestDatabase;
  let mcp: McpTestServer;
  let t: TestApp;
  let key: string;
  let box: SecretBox;

  beforeAll(async () => {
    for (const [, secret] of Object.entries(SECRETS)) {
      recordSecret('integration secret', secret);
    }
    database = await createTestDatabase(postgresUrl);
    mcp = await startMcpTestServer([{ name: 'lookup' }]);
    const secretKey = randomBytes(32);
    box = new SecretBox(secretKey);
    await legacyDatabase(database.url, secretKey, mcp.url);
    t = await startTestApp({
      DATABASE_URL: database.url,
      CONSOLE_SECRET_KEY: secretKey.toString('hex'),
    });
    key = (await t.createKey('legacy', ['*'])).key;
  });
  afterAll(async () => {
    await t?.close();
    await mcp?.close();
    await database?.drop();
  });

  const get = async (path: string) => (await t.api(key).get(`${API}${path}`).expect(200)).body.data;

  it('turns text setup times into whole minutes, and what reads as none into null', async () => {
    const expected: Record<string, number | null> = {
      'wf-hours': 90,
      'wf-plain': 15,
      'wf-words': 120,
      'wf-vague': null,
      'wf-unset': null,
    };
    for (const [name, minutes] of Object.entries(expected)) {
      expect((await get(`/workflows/${ID[name]}`)).setup_time).toBe(minutes);
    }
    const created = await t
      .api(key)
      .post(`${API}/workflows`)
      .send({ name: 'New', setup_time: 45 })
      .expect(201);
    expect((await get(`/workflows/${created.body.data.id}`)).setup_time).toBe(45);
  });

  it('drops the nulls the old code invented inside flows and the guide', async () => {
    const workflow = await get(`/workflows/${ID['wf-hours']}`);
    expect(workflow.flows).toEqual([
      {
        name: 'Refunds',
        category: 'billing',
        is_active: true,
        trigger_keywords: [{ keyword: 'refund' }],
        conversation_steps: [{ type: 'message', content: 'Order number?' }],
      },
    ]);
    expect(workflow.guide).toEqual({ steps: ['Connect'] });
  });

  it('sends stored MCP credentials under their new names', async () => {
    const base = `${API}/agents/${AGENT}/integrations/mcp_server`;
    const expected: Array<[string, Record<string, string>]> = [
      ['mcp-api-key', { 'x-api-key': SECRETS.mcpKey }],
      ['mcp-custom', { 'x-shop-token': SECRETS.mcpHeader, 'x-shop-tenant': 'acme' }],
    ];
    for (const [name, headers] of expected) {
      mcp.receivedHeaders.length = 0;
      const test = await t.api(key).post(`${base}/${ID[name]}/test`).expect(200);
      expect(test.body.data.success).toBe(true);
      expect(mcp.receivedHeaders[0]).toMatchObject(headers);
    }
    const servers = await get(`/agents/${AGENT}/integrations/mcp_server`);
    expect(
      servers.find((server: { id: string }) => server.id === ID['mcp-empty-custom']).config
        .auth_type,
    ).toBe('none');
  });

  it('renames stored custom API and tool settings, still sealed, and gives tools a category', async () => {
    const rows = await t
      .dataSource()
      .query<Array<{ id: string; config: string; secrets: string }>>(
        'SELECT "id", "config", "secrets" FROM "integrations" UNION ALL ' +
          'SELECT "id", "config", "secrets" FROM "actions"',
      );
    expect(JSON.stringify(rows)).not.toContain('legacy-');
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    const api = byId[ID['api-key-api']];
    const tool = byId[ID['tool-legacy']];
    expect(box.openJson(api.secrets)).toEqual({
      api_key: SECRETS.apiKey,
      header_name: 'X-Shop-Key',
    });
    expect(box.openJson(tool.secrets)).toEqual({
      header_name: 'X-Tool-Key',
      token: SECRETS.toolHeader,
    });
    expect(JSON.parse(tool.config)).toEqual({
      http_method: 'GET',
      url_template: 'https://shop.example/orders/{id}',
      // Moved under `fields` by ResponseMappingFields1733198400000, which runs after this one.
      response_mapping: { fields: { status: '$.status' } },
      auth_type: 'custom',
      timeout: 30,
    });
    expect(await get(`/agents/${AGENT}/integrations/custom_api/${api.id}/tools`)).toEqual([
      expect.objectContaining({ id: tool.id, category: 'custom' }),
    ]);
    expect(await get(`/agents/${AGENT}/integrations/custom_api`)).toEqual([
      { id: api.id, config: { name: 'Shop', auth_type: 'api_key' } },
    ]);
  });
});
