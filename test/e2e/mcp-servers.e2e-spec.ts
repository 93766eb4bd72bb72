import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { McpTestServer, startMcpTestServer } from '../support/mcp-test-server';
import { freePort } from '../support/free-port';
import { configureIntegration } from '../factories/integrations';

describe('MCP servers', () => {
  let t: TestApp;
  let mcp: McpTestServer;
  let agentId: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_TIMEOUT_MS: '5000' });
    mcp = await startMcpTestServer([
      { name: 'search_products', title: 'Search products', description: 'Find products by name' },
      { name: 'get_weather', description: 'Weather for a city' },
      { name: 'create_ticket', description: 'Open a support ticket' },
    ]);
    agentId = (await createAgent(t)).id;
    base = `${API}/agents/${agentId}/integrations/mcp_server`;
  });
  afterAll(async () => {
    await mcp.close();
    await t.close();
  });

  const configure = (body: Record<string, unknown>) =>
    configureIntegration(t, agentId, 'mcp_server', body);
  const discover = (id: string) => t.api().post(`${base}/${id}/discover`);
  const tools = async (id: string) =>
    (await t.api().get(`${base}/${id}/tools`).expect(200)).body.data;

  it.each([
    ['streamable_http', '/mcp'],
    ['http_sse', '/sse'],
  ])(
    'discovers tools over %s, then keeps them in sync (a removed tool is disabled, not deleted)',
    async (transport, path) => {
      mcp.tools.splice(
        0,
        mcp.tools.length,
        ...[
          {
            name: 'search_products',
            title: 'Search products',
            description: 'Find products by name',
          },
          { name: 'get_weather', description: 'Weather for a city' },
          { name: 'create_ticket', description: 'Open a support ticket' },
        ],
      );
      const server = await configure({
        name: `Shop ${transport}`,
        server_url: `${mcp.url}${path}`,
        transport,
      });
      expect(server).toEqual({
        id: expect.any(String),
        config: {
          name: `Shop ${transport}`,
          server_url: `${mcp.url}${path}`,
          transport,
          auth_type: 'none',
        },
      });

      const first = await discover(server.id).expect(200);
      expect(first.body).toEqual({
        message: 'MCP tools discovered successfully',
        data: { discovered: 3, created: 3, updated: 0, disabled: 0 },
      });
      const discovered = await tools(server.id);
      expect(discovered).toEqual([
        {
          id: expect.any(String),
          action_name: 'search_products',
          name: 'Search products',
          description: 'Find products by name',
          category: 'mcp',
          is_enabled: true,
        },
        {
          id: expect.any(String),
          action_name: 'get_weather',
          name: 'get_weather',
          description: 'Weather for a city',
          category: 'mcp',
          is_enabled: true,
        },
        {
          id: expect.any(String),
          action_name: 'create_ticket',
          name: 'create_ticket',
          description: 'Open a support ticket',
          category: 'mcp',
          is_enabled: true,
        },
      ]);

      mcp.tools.splice(1, 1);
      mcp.tools[0].description = 'Find products by name or SKU';
      const second = await discover(server.id).expect(200);
      expect(second.body.data).toEqual({ discovered: 2, created: 0, updated: 2, disabled: 1 });
      const afterRemoval = await tools(server.id);
      expect(afterRemoval).toHaveLength(3);
      expect(
        afterRemoval.find((tool: { action_name: string }) => tool.action_name === 'get_weather')
          .is_enabled,
      ).toBe(false);
      expect(
        afterRemoval.find((tool: { action_name: string }) => tool.action_name === 'search_products')
          .description,
      ).toBe('Find products by name or SKU');

      mcp.tools.push(
        { name: 'get_weather', description: 'Weather again' },
        { name: 'track_order' },
      );
      const third = await discover(server.id).expect(200);
      expect(third.body.data).toEqual({ discovered: 4, created: 1, updated: 3, disabled: 0 });
      expect(
        (await tools(server.id)).every((tool: { is_enabled: boolean }) => tool.is_enabled),
      ).toBe(true);

      const actions = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data;
      expect(
        actions.filter((a: { integration_id: string }) => a.integration_id === server.id),
      ).toHaveLength(4);
      expect(actions[actions.length - 1]).toMatchObject({
        integration_type: 'mcp_server',
        integration_name: `Shop ${transport}`,
      });
    },
  );

  it('reports a successful test with the number of tools, and marks the server connected', async () => {
    const server = await configure({ name: 'Test me', server_url: `${mcp.url}/mcp` });
    const res = await t.api().post(`${base}/${server.id}/test`).expect(200);
    expect(res.body.data).toEqual({
      success: true,
      message: 'Connected to the MCP server',
      tools_count: mcp.tools.length,
    });
    const summary = (await t.api().get(`${API}/agents/${agentId}`)).body.data.integrations;
    expect(summary).toContainEqual({
      id: server.id,
      type: 'mcp_server',
      name: 'Test me',
      status: 'connected',
      is_connected: true,
    });
  });

  it('follows tools/list pages', async () => {
    mcp.tools.splice(
      0,
      mcp.tools.length,
      ...Array.from({ length: 7 }, (_, i) => ({ name: `tool_${i}` })),
    );
    mcp.pageSize = 3;
    try {
      const server = await configure({ name: 'Paged', server_url: `${mcp.url}/mcp` });
      expect((await discover(server.id).expect(200)).body.data).toEqual({
        discovered: 7,
        created: 7,
        updated: 0,
        disabled: 0,
      });
    } finally {
      mcp.pageSize = 100;
    }
  });

  it('sends the configured credentials, stored encrypted', async () => {
    mcp.requiredToken = 'mcp-secret-token';
    try {
      const anonymous = await configure({ name: 'No auth', server_url: `${mcp.url}/mcp` });
      const failed = await t.api().post(`${base}/${anonymous.id}/test`).expect(200);
      expect(failed.body.data).toEqual({
        success: false,
        message: 'Could not connect to the MCP server',
        error: expect.any(String),
      });
      const server = await configure({
        name: 'With auth',
        server_url: `${mcp.url}/mcp`,
        auth_type: 'bearer',
        auth_config: { token: 'mcp-secret-token' },
      });
      expect((await t.api().post(`${base}/${server.id}/test`).expect(200)).body.data.success).toBe(
        true,
      );
      expect(
        JSON.stringify(await t.dataSource().query('SELECT * FROM integrations')),
      ).not.toContain('mcp-secret-token');
    } finally {
      mcp.requiredToken = null;
    }
  });

  it.each([
    [
      { auth_type: 'api_key', auth_config: { api_key: 'mcp-api-key-1' } },
      { 'x-api-key': 'mcp-api-key-1' },
    ],
    [
      {
        auth_type: 'api_key',
        auth_config: { api_key: 'mcp-api-key-2', header_name: 'X-Shop-Key' },
      },
      { 'x-shop-key': 'mcp-api-key-2' },
    ],
    [
      {
        auth_type: 'custom',
        auth_config: {
          header_name: 'X-Shop-Token',
          token: 'mcp-custom-token-3',
          headers: { 'X-Shop-Tenant': 'acme' },
        },
      },
      { 'x-shop-token': 'mcp-custom-token-3', 'x-shop-tenant': 'acme' },
    ],
    [
      { auth_type: 'basic', auth_config: { username: 'shop', password: 'mcp-password-4' } },
      { authorization: `Basic ${Buffer.from('shop:mcp-password-4').toString('base64')}` },
    ],
  ])('sends %j to the server as the headers %j', async (auth, headers) => {
    const server = await configure({
      name: 'Authenticated',
      server_url: `${mcp.url}/mcp`,
      ...auth,
    });
    mcp.receivedHeaders.length = 0;
    const test = await t.api().post(`${base}/${server.id}/test`).expect(200);
    expect(test.body.data.success).toBe(true);
    expect(mcp.receivedHeaders.length).toBeGreaterThan(0);
    for (const received of mcp.receivedHeaders) {
      expect(received).toMatchObject(headers);
    }
    expect(JSON.stringify(await t.dataSource().query('SELECT * FROM integrations'))).not.toContain(
      Object.values(auth.auth_config).find(
        (value) => typeof value === 'string' && value.startsWith('mcp-'),
      ),
    );
  });

  it('reports a failed test (200) and answers a discovery with 502 when the server is unreachable', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    const server = await configure({ name: 'Gone', server_url: `http://127.0.0.1:${port}/mcp` });
    const test = await t.api().post(`${base}/${server.id}/test`).expect(200);
    expect(test.body.data).toEqual({
      success: false,
      message: 'Could not connect to the MCP server',
      error: expect.any(String),
    });
    const refused = await discover(server.id).expect(502);
    expect(refused.body).toEqual({
      code: 'internal_error',
      error: 'Bad Gateway',
      statusCode: 502,
      request_id: refused.headers['x-request-id'],
      message: expect.stringMatching(/^MCP server "Gone" could not list its tools: .*ECONNREFUSED/),
    });
    expect(refused.headers['x-ratelimit-limit']).toBeDefined();
    expect(refused.body.message).not.toMatch(/[A-Z]\w*Error\b/);
    const summary = (await t.api().get(`${API}/agents/${agentId}`)).body.data.integrations;
    expect(summary).toContainEqual(
      expect.objectContaining({ id: server.id, status: 'error', is_connected: false }),
    );
  });

  it('stores nothing for a discover the server was not up for, so the same key succeeds once it is', async () => {
    const port = await freePort();
    const server = await configure({ name: 'Late', server_url: `http://127.0.0.1:${port}/mcp` });
    const send = () => discover(server.id).set('Idempotency-Key', 'discover-when-up');
    const down = await send().expect(502);
    expect(down.body.code).toBe('internal_error');
    const late = await startMcpTestServer([{ name: 'late_tool' }, { name: 'other_tool' }], port);
    try {
      const up = await send().expect(200);
      expect(up.headers['idempotent-replayed']).toBeUndefined();
      expect(up.body.data).toEqual({ discovered: 2, created: 2, updated: 0, disabled: 0 });
      const replay = await send().expect(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(up.text);
      expect(await tools(server.id)).toHaveLength(2);
    } finally {
      await late.close();
    }
  });

  it('gives up on a server that never answers, within the outbound timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const server = await configure({
        name: 'Silent',
        server_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`,
      });
      const res = await t.api().post(`${base}/${server.id}/test`).expect(200);
      expect(res.body.data).toMatchObject({
        success: false,
        error: expect.stringMatching(/in time|answer/),
      });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses a response larger than the cap', async () => {
    // A well-formed MCP server whose initialize answer carries 6 MiB of instructions: fine but
    // for its size, so only the cap can make the test fail.
    const bloated = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as {
          id?: number;
          method: string;
          params?: { protocolVersion?: string };
        };
        if (message.id === undefined) {
          res.writeHead(202).end();
          return;
        }
        const result =
          message.method === 'initialize'
            ? {
                protocolVersion: message.params?.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'bloated', version: '1' },
                instructions: 'x'.repeat(6 * 1024 * 1024),
              }
            : { tools: [] };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      });
    });
    await new Promise<void>((resolve) => bloated.listen(0, '127.0.0.1', resolve));
    try {
      const server = await configure({
        name: 'Bloated',
        server_url: `http://127.0.0.1:${(bloated.address() as AddressInfo).port}/mcp`,
      });
      const res = await t.api().post(`${base}/${server.id}/test`).expect(200);
      expect(res.body.data).toMatchObject({
        success: false,
        error: expect.stringMatching(/larger than/),
      });
    } finally {
      bloated.closeAllConnections();
      await new Promise((resolve) => bloated.close(resolve));
    }
  });

  it('deletes a server with its actions', async () => {
    const server = await configure({ name: 'Temporary', server_url: `${mcp.url}/mcp` });
    await discover(server.id).expect(200);
    await t.api().delete(`${base}/${server.id}`).expect(200);
    await t.api().get(`${base}/${server.id}/tools`).expect(404);
    const actions = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data;
    expect(actions.some((a: { integration_id: string }) => a.integration_id === server.id)).toBe(
      false,
    );
  });

  it('validates the configuration', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ server_url: `${mcp.url}/mcp` }, 'name: must not be empty'],
      [{ name: 'x' }, 'server_url: must be a string'],
      [{ name: 'x', server_url: 'ws://example.com' }, 'server_url: must be an http(s) URL'],
      [
        { name: 'x', server_url: `${mcp.url}/mcp`, transport: 'stdio' },
        'transport: must be one of the following values: http_sse, streamable_http',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.api().post(`${base}/configure`).send(body).expect(400);
      expect(res.body.message).toContain(message);
    }
  });
});
