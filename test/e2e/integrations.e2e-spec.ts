import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';

describe('integrations', () => {
  let t: TestApp;
  let agentId: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ DASHBOARD_URL: 'https://dash.example.com/' });
    agentId = (await createAgent(t)).id;
    base = `${API}/agents/${agentId}/integrations`;
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown) =>
    t
      .api()
      .post(`${base}${path}`)
      .send(body as object);
  const get = (path: string) => t.api().get(`${base}${path}`);

  describe('built-in connectors (bimpeai)', () => {
    it('lists one row per type, unconfigured ones with a null id', async () => {
      const res = await get('/bimpeai').expect(200);
      expect(res.body.data).toEqual([
        { id: null, type: 'bumpa', name: 'Bumpa', status: 'not_configured', is_connected: false },
        {
          id: null,
          type: 'google_calendar',
          name: 'Google Calendar',
          status: 'not_configured',
          is_connected: false,
        },
        {
          id: null,
          type: 'google_sheets',
          name: 'Google Sheets',
          status: 'not_configured',
          is_connected: false,
        },
        {
          id: null,
          type: 'paystack',
          name: 'Paystack',
          status: 'not_configured',
          is_connected: false,
        },
        { id: null, type: 'stripe', name: 'Stripe', status: 'not_configured', is_connected: false },
      ]);
    });

    it('connects a credentials connector at once and brings its catalogue of actions', async () => {
      const res = await post('/bimpeai/configure', {
        type: 'stripe',
        secret_key: 'sk_live_stripe_secret_1',
        public_key: 'pk_live_1',
        currency: 'NGN',
      }).expect(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        type: 'stripe',
        status: 'connected',
        is_connected: true,
        onboarding_url: `https://dash.example.com/agents/${agentId}/integrations/stripe?integration_id=${res.body.data.id}`,
      });
      const row = (await get('/bimpeai').expect(200)).body.data.find(
        (r: { type: string }) => r.type === 'stripe',
      );
      expect(row).toEqual({
        id: res.body.data.id,
        type: 'stripe',
        name: 'Stripe',
        status: 'connected',
        is_connected: true,
      });
      const actions = (await t.api().get(`${API}/agents/${agentId}/actions`).expect(200)).body.data;
      expect(actions.map((a: { action_name: string }) => a.action_name)).toEqual(
        expect.arrayContaining(['create_payment_link', 'get_payment_status', 'refund_payment']),
      );
    });

    it('keeps an OAuth connector pending with an onboarding URL into the dashboard', async () => {
      const res = await post('/bimpeai/configure', { type: 'google_calendar' }).expect(201);
      const id = res.body.data.id;
      expect(res.body.data).toEqual({
        id,
        type: 'google_calendar',
        status: 'pending',
        is_connected: false,
        onboarding_url: `https://dash.example.com/agents/${agentId}/integrations/google_calendar/connect?integration_id=${id}`,
      });
      const all = (await get('').expect(200)).body.data;
      const calendar = all.find((i: { id: string }) => i.id === id);
      expect(calendar.actions.map((a: { action_name: string }) => a.action_name)).toEqual(
        expect.arrayContaining(['check_availability', 'book_appointment']),
      );
    });

    it('reconfigures in place rather than adding a second one', async () => {
      const first = await post('/bimpeai/configure', { type: 'paystack' }).expect(201);
      expect(first.body.data).toMatchObject({
        status: 'pending',
        onboarding_url: `https://dash.example.com/agents/${agentId}/integrations/paystack?integration_id=${first.body.data.id}`,
      });
      const second = await post('/bimpeai/configure', {
        type: 'paystack',
        secret_key: 'sk_paystack_9',
      }).expect(201);
      expect(second.body.data).toMatchObject({
        id: first.body.data.id,
        status: 'connected',
        is_connected: true,
      });
      const rows = (await get('/bimpeai').expect(200)).body.data.filter(
        (r: { type: string }) => r.type === 'paystack',
      );
      expect(rows).toHaveLength(1);
    });

    it('refuses fields a connector does not use, and unknown types', async () => {
      const res = await post('/bimpeai/configure', { type: 'bumpa', secret_key: 'x' }).expect(400);
      expect(res.body.message).toEqual(['secret_key: is not used by bumpa']);
      await post('/bimpeai/configure', { type: 'shopify' }).expect(400);
      await post('/bimpeai/configure', { type: 'stripe', currency: 'naira' }).expect(400);
    });

    it('disconnects, removing the connector and its actions', async () => {
      const connected = await post('/bimpeai/configure', {
        type: 'bumpa',
        token: 'bumpa-token',
      }).expect(201);
      await t.api().delete(`${base}/bimpeai/${connected.body.data.id}`).expect(200);
      const row = (await get('/bimpeai').expect(200)).body.data.find(
        (r: { type: string }) => r.type === 'bumpa',
      );
      expect(row.id).toBeNull();
      const actions = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data;
      expect(
        actions.some(
          (a: { integration_id: string }) => a.integration_id === connected.body.data.id,
        ),
      ).toBe(false);
      await t.api().delete(`${base}/bimpeai/${connected.body.data.id}`).expect(404);
    });
  });

  describe('secrets at rest', () => {
    it('stores no plaintext secret anywhere in the integration and action rows, and never returns one', async () => {
      const secrets = [
        'sk_live_PLAINTEXT_stripe',
        'tok_PLAINTEXT_bumpa',
        'bearer_PLAINTEXT_api',
        'pass_PLAINTEXT_tool',
      ];
      const solo = await createAgent(t);
      const soloBase = `${API}/agents/${solo.id}/integrations`;
      await t
        .api()
        .post(`${soloBase}/bimpeai/configure`)
        .send({ type: 'stripe', secret_key: secrets[0] })
        .expect(201);
      await t
        .api()
        .post(`${soloBase}/bimpeai/configure`)
        .send({ type: 'bumpa', token: secrets[1] })
        .expect(201);
      const api = await t
        .api()
        .post(`${soloBase}/custom_api/configure`)
        .send({
          name: 'Shop',
          base_url: 'https://shop.example.com',
          auth_type: 'bearer',
          auth_config: { token: secrets[2] },
        })
        .expect(201);
      await t
        .api()
        .post(`${soloBase}/custom_api/${api.body.data.id}/tools`)
        .send({
          name: 'Orders',
          http_method: 'GET',
          url_template: '/orders',
          auth_type: 'basic',
          auth_config: { username: 'u', password: secrets[3] },
        })
        .expect(201);
      const rows = [
        ...(await t.dataSource().query('SELECT * FROM integrations')),
        ...(await t.dataSource().query('SELECT * FROM actions')),
      ];
      const dump = JSON.stringify(rows);
      for (const secret of secrets) {
        expect(dump).not.toContain(secret);
      }
      expect(rows.some((row: { secrets: string | null }) => row.secrets?.startsWith('v1.'))).toBe(
        true,
      );
      const responses = [
        await t.api().get(`${soloBase}`),
        await t.api().get(`${soloBase}/custom_api`),
        await t.api().get(`${soloBase}/custom_api/${api.body.data.id}/tools`),
        await t.api().get(`${API}/agents/${solo.id}`),
      ];
      for (const res of responses) {
        for (const secret of secrets) {
          expect(res.text).not.toContain(secret);
        }
      }
    });
  });

  describe('custom APIs and their tools', () => {
    let apiId: string;

    it('configures an API and lists it with its public settings only', async () => {
      const res = await post('/custom_api/configure', {
        name: 'Orders API',
        description: 'Order lookups',
        base_url: 'https://orders.example.com/v1',
        auth_type: 'api_key',
        auth_config: { api_key: 'k-123', header_name: 'X-Orders-Key' },
        test_endpoint: 'https://orders.example.com/v1/health',
      }).expect(201);
      apiId = res.body.data.id;
      expect(res.body.data).toEqual({
        id: apiId,
        config: {
          name: 'Orders API',
          base_url: 'https://orders.example.com/v1',
          auth_type: 'api_key',
        },
      });
      const list = (await get('/custom_api').expect(200)).body.data;
      expect(list).toContainEqual(res.body.data);
    });

    it('lists an API configured without base_url without one', async () => {
      const res = await post('/custom_api/configure', { name: 'Absolute only' }).expect(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        config: { name: 'Absolute only', auth_type: 'none' },
      });
      const list = (await get('/custom_api').expect(200)).body.data;
      expect(list).toContainEqual(res.body.data);
    });

    it('checks auth settings against the auth type, naming each field', async () => {
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ auth_type: 'bearer', auth_config: {} }, ['auth_config.token: must not be empty']],
        [{ auth_type: 'api_key', auth_config: {} }, ['auth_config.api_key: must not be empty']],
        [
          { auth_type: 'api_key', auth_config: { key: 'k-1' } },
          ['auth_config.key: is not allowed'],
        ],
        [
          { auth_type: 'api_key', auth_config: { api_key: 'k-1', header_name: 'X Key' } },
          ['auth_config.header_name: must be an HTTP header name'],
        ],
        [
          { auth_type: 'basic', auth_config: { username: 'a:b', password: '' } },
          ['auth_config.username: must not contain ":"', 'auth_config.password: must not be empty'],
        ],
        [
          { auth_type: 'custom', auth_config: { headers: { 'X-Key': 'v' } } },
          ['auth_config.header_name: must not be empty', 'auth_config.token: must not be empty'],
        ],
        [
          {
            auth_type: 'custom',
            auth_config: { header_name: 'X-Key', token: 't', headers: { 'x-key': 'v', 'X-N': 1 } },
          },
          [
            'auth_config.headers.x-key: repeats header_name',
            'auth_config.headers.X-N: must be a string',
          ],
        ],
        [{ auth_config: { token: 't' } }, ['auth_config.token: is not used by none']],
        [
          { auth_type: 'basic', auth_config: { username: 'u', password: 'p', api_key: 'k' } },
          ['auth_config.api_key: is not used by basic'],
        ],
        [
          { auth_type: 'bearer', auth_config: { token: 5 } },
          [
            'auth_config.token: must be shorter than or equal to 4096 characters',
            'auth_config.token: must be a string',
          ],
        ],
        [
          { auth_type: 'bearer', auth_config: 'token' },
          ['auth_config: must be a JSON object', 'auth_config: must be an object'],
        ],
      ];
      for (const [fields, messages] of cases) {
        const res = await post('/custom_api/configure', { name: 'x', ...fields }).expect(400);
        expect(res.body.message).toEqual(messages);
      }
      const injected = await post('/custom_api/configure', {
        name: 'x',
        auth_type: 'bearer',
        auth_config: { token: 'a\r\nX-Evil: 1' },
      }).expect(400);
      expect(injected.body.code).toBe('validation_error');
      await post('/custom_api/configure', { name: 'x', auth_type: 'oauth9' }).expect(400);
      await post('/custom_api/configure', { name: 'x', base_url: 'not a url' }).expect(400);
    });

    it('adds, lists and deletes tools, each an action of the agent', async () => {
      const tool = await post(`/custom_api/${apiId}/tools`, {
        name: 'Get Order Status',
        http_method: 'GET',
        url_template: '/orders/{order_id}',
        description: 'Look up an order',
        url_params: [{ name: 'order_id', type: 'string', required: true }],
        headers_template: { Accept: 'application/json' },
        response_mapping: { status: '$.status' },
        category: 'orders',
        require_human_approval: false,
        timeout: 10,
      }).expect(201);
      expect(tool.body.data).toEqual({
        id: expect.any(String),
        action_name: 'get_order_status',
        name: 'Get Order Status',
        description: 'Look up an order',
        category: 'orders',
        is_enabled: true,
      });
      const duplicate = await post(`/custom_api/${apiId}/tools`, {
        name: 'get order status',
        http_method: 'POST',
        url_template: '/x',
      }).expect(409);
      expect(duplicate.body.code).toBe('conflict');
      const tools = (await get(`/custom_api/${apiId}/tools`).expect(200)).body.data;
      expect(tools).toEqual([tool.body.data]);
      const actions = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data;
      expect(actions).toContainEqual({
        id: tool.body.data.id,
        integration_id: apiId,
        integration_type: 'custom_api',
        integration_name: 'Orders API',
        name: 'Get Order Status',
        action_name: 'get_order_status',
        description: 'Look up an order',
        is_enabled: true,
      });
      await t.api().delete(`${base}/custom_api/${apiId}/tools/${tool.body.data.id}`).expect(200);
      expect((await get(`/custom_api/${apiId}/tools`).expect(200)).body.data).toEqual([]);
      await t.api().delete(`${base}/custom_api/${apiId}/tools/${tool.body.data.id}`).expect(404);
    });

    it('validates tools', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ http_method: 'GET', url_template: '/x' }, 'name: must not be empty'],
        [
          { name: 'n', http_method: 'TRACE', url_template: '/x' },
          'http_method: must be one of the following values: GET, POST, PUT, DELETE, PATCH',
        ],
        [
          { name: 'n', http_method: 'GET', url_template: 'orders' },
          'url_template: must be a path starting with a single / or an http(s) URL, without backslashes',
        ],
        [
          { name: 'n', http_method: 'GET', url_template: '/x', timeout: 0 },
          'timeout: must not be less than 1',
        ],
        [
          { name: 'n', http_method: 'GET', url_template: '/x', url_params: 'id' },
          'url_params: must be a JSON object or array',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await post(`/custom_api/${apiId}/tools`, body).expect(400);
        expect(res.body.message).toContain(message);
      }
    });

    it('refuses scheme-relative and backslash url_templates, which would name another host', async () => {
      for (const url_template of [
        '//169.254.169.254/x',
        '/\\169.254.169.254/x',
        '/orders\\..\\x',
        'https:\\\\169.254.169.254/x',
      ]) {
        const res = await post(`/custom_api/${apiId}/tools`, {
          name: 'Metadata',
          http_method: 'GET',
          url_template,
        }).expect(400);
        expect(res.body.message).toEqual([
          'url_template: must be a path starting with a single / or an http(s) URL, without backslashes',
        ]);
      }
    });

    it('gives a tool the category "custom" when none is sent', async () => {
      const tool = await post(`/custom_api/${apiId}/tools`, {
        name: 'Uncategorised',
        http_method: 'GET',
        url_template: '/things',
      }).expect(201);
      expect(tool.body.data.category).toBe('custom');
      const nulled = await post(`/custom_api/${apiId}/tools`, {
        name: 'Nulled',
        http_method: 'GET',
        url_template: '/things',
        category: null,
      }).expect(201);
      expect(nulled.body.data.category).toBe('custom');
      const listed = (await get(`/custom_api/${apiId}/tools`).expect(200)).body.data;
      expect(listed.map((tool: { category: string }) => tool.category)).toEqual([
        'custom',
        'custom',
      ]);
      const summary = (await get('').expect(200)).body.data.find(
        (i: { id: string }) => i.id === apiId,
      );
      expect(summary.actions.map((a: { category: string }) => a.category)).toEqual([
        'custom',
        'custom',
      ]);
    });

    it('deletes an API with its tools', async () => {
      const api = await post('/custom_api/configure', {
        name: 'Temp',
        base_url: 'https://t.example.com',
      }).expect(201);
      const tool = await post(`/custom_api/${api.body.data.id}/tools`, {
        name: 'Ping',
        http_method: 'GET',
        url_template: '/ping',
      }).expect(201);
      await t.api().delete(`${base}/custom_api/${api.body.data.id}`).expect(200);
      const actions = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data;
      expect(actions.map((a: { id: string }) => a.id)).not.toContain(tool.body.data.id);
      await get(`/custom_api/${api.body.data.id}/tools`).expect(404);
    });
  });

  describe('pipedream', () => {
    it('stores the app and answers an onboarding URL; disconnect removes it', async () => {
      const res = await post('/pipedream/configure', {
        app_slug: 'google_drive',
        app_icon: 'https://icons.example.com/drive.png',
      }).expect(201);
      const id = res.body.data.id;
      expect(res.body.data).toEqual({
        id,
        channel_type: 'pipedream',
        config: {
          app_slug: 'google_drive',
          app_name: 'Google Drive',
          app_icon: 'https://icons.example.com/drive.png',
          server_url: `https://remote.mcp.pipedream.net/${agentId}/google_drive`,
        },
        onboarding_url: `https://dash.example.com/agents/${agentId}/integrations/pipedream/google_drive/connect?integration_id=${id}`,
      });
      const { onboarding_url: _url, ...item } = res.body.data;
      expect((await get('/pipedream').expect(200)).body.data).toEqual([item]);
      await t.api().delete(`${base}/pipedream/${id}`).expect(200);
      expect((await get('/pipedream').expect(200)).body.data).toEqual([]);
      await post('/pipedream/configure', { app_slug: 'Bad Slug!' }).expect(400);
    });
  });

  describe('actions', () => {
    it("enables and disables in bulk, counting only the agent's own ids", async () => {
      const other = await createAgent(t);
      await t
        .api()
        .post(`${API}/agents/${other.id}/integrations/bimpeai/configure`)
        .send({ type: 'google_sheets' })
        .expect(201);
      const foreign = (await t.api().get(`${API}/agents/${other.id}/actions`)).body.data.map(
        (a: { id: string }) => a.id,
      );
      const mine = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data.map(
        (a: { id: string }) => a.id,
      );
      expect(mine.length).toBeGreaterThan(1);
      const disable = await t
        .api()
        .post(`${API}/agents/${agentId}/actions/disable`)
        .send({ action_ids: [mine[0], mine[1], mine[0], ...foreign, 'not-an-id'] })
        .expect(200);
      expect(disable.body).toEqual({
        message: 'Actions disabled successfully',
        data: { updated_count: 2 },
      });
      const after = (await t.api().get(`${API}/agents/${agentId}/actions`)).body.data;
      expect(
        after
          .filter((a: { is_enabled: boolean }) => !a.is_enabled)
          .map((a: { id: string }) => a.id)
          .sort(),
      ).toEqual([mine[0], mine[1]].sort());
      const untouched = (await t.api().get(`${API}/agents/${other.id}/actions`)).body.data;
      expect(untouched.every((a: { is_enabled: boolean }) => a.is_enabled)).toBe(true);
      const enable = await t
        .api()
        .post(`${API}/agents/${agentId}/actions/enable`)
        .send({ action_ids: [mine[0]] })
        .expect(200);
      expect(enable.body.data).toEqual({ updated_count: 1 });
      await t
        .api()
        .post(`${API}/agents/${agentId}/actions/enable`)
        .send({ action_ids: 'all' })
        .expect(400);
    });
  });

  describe('the family-wide list', () => {
    it('shows every integration with its config fields and actions', async () => {
      const list = (await get('').expect(200)).body.data;
      const stripe = list.find((i: { type: string }) => i.type === 'stripe');
      expect(stripe).toEqual({
        id: expect.any(String),
        type: 'stripe',
        name: 'Stripe',
        status: 'connected',
        is_connected: true,
        config_fields: [
          { key: 'public_key', label: 'Publishable key', type: 'text', required: false },
          { key: 'secret_key', label: 'Secret key', type: 'password', required: true },
          { key: 'currency', label: 'Currency', type: 'text', required: false },
        ],
        actions: expect.arrayContaining([
          {
            action_name: 'create_payment_link',
            name: 'Create payment link',
            description: expect.any(String),
            category: 'payments',
            is_enabled: expect.any(Boolean),
            require_human_approval: false,
          },
        ]),
      });
      const custom = list.find((i: { type: string }) => i.type === 'custom_api');
      expect(custom.config_fields.map((f: { key: string }) => f.key)).toEqual([
        'name',
        'description',
        'base_url',
        'auth_type',
        'auth_config',
        'test_endpoint',
      ]);
    });
  });
});

describe('outbound URLs (server-side request forgery)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    base = `${API}/agents/${(await createAgent(t)).id}/integrations`;
  });
  afterAll(() => t.close());

  const refused = [
    'http://127.0.0.1:8080/mcp',
    'http://localhost/mcp',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.5/',
    'http://192.168.1.10/',
    'http://172.16.0.1/',
    'http://[::1]/mcp',
    'http://[fd00:ec2::254]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::169.254.169.254]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://192.0.2.1/',
  ];

  it.each(refused)('refuses MCP server_url %s with 400 validation_error', async (url) => {
    const res = await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: url })
      .expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.message[0]).toMatch(/^server_url: /);
  });

  it('refuses private custom API base_url, test_endpoint and absolute tool URLs', async () => {
    const base_url = await t
      .api()
      .post(`${base}/custom_api/configure`)
      .send({ name: 'a', base_url: 'http://127.0.0.1:9000' })
      .expect(400);
    expect(base_url.body.message[0]).toMatch(/^base_url: must not point to a private/);
    const test_endpoint = await t
      .api()
      .post(`${base}/custom_api/configure`)
      .send({ name: 'a', test_endpoint: 'http://169.254.169.254/' })
      .expect(400);
    expect(test_endpoint.body.message[0]).toMatch(/^test_endpoint: /);
    const api = await t
      .api()
      .post(`${base}/custom_api/configure`)
      .send({ name: 'a', base_url: 'http://93.184.216.34' })
      .expect(201);
    const tool = await t
      .api()
      .post(`${base}/custom_api/${api.body.data.id}/tools`)
      .send({ name: 't', http_method: 'GET', url_template: 'http://10.1.1.1/x' })
      .expect(400);
    expect(tool.body.message[0]).toMatch(/^url_template: /);
  });

  it('refuses a host that does not resolve', async () => {
    const res = await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: 'http://no-such-host.invalid/mcp' })
      .expect(400);
    expect(res.body.message).toEqual(['server_url: host could not be resolved']);
  });

  it('accepts a public address', async () => {
    await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: 'https://93.184.216.34/mcp' })
      .expect(201);
  });
});

describe('outbound URLs with private networks allowed', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    base = `${API}/agents/${(await createAgent(t)).id}/integrations`;
  });
  afterAll(() => t.close());

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::169.254.169.254]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
  ])('still refuses the link-local or metadata target %s', async (url) => {
    const res = await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: url })
      .expect(400);
    expect(res.body.message).toEqual([
      'server_url: must not point to a private, loopback, link-local or metadata address',
    ]);
  });

  it('lets a loopback target through', async () => {
    await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: 'http://127.0.0.1:9/mcp' })
      .expect(201);
  });
});
