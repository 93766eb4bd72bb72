import { createAgent } from '../factories/agents';
import { configureIntegration, createTool, useAgentIntegrations } from '../factories/integrations';
import { API } from '../factories/test-app';

describe('integrations: custom APIs, their tools and their secrets', () => {
  const app = useAgentIntegrations({ DASHBOARD_URL: 'https://dash.example.com/' });

  describe('custom APIs and their tools', () => {
    let apiId: string;

    it('configures an API and lists it with its public settings only', async () => {
      const res = await app
        .post('/custom_api/configure', {
          name: 'Orders API',
          description: 'Order lookups',
          base_url: 'https://orders.example.com/v1',
          auth_type: 'api_key',
          auth_config: { api_key: 'k-123', header_name: 'X-Orders-Key' },
          test_endpoint: 'https://orders.example.com/v1/health',
        })
        .expect(201);
      apiId = res.body.data.id;
      expect(res.body.data).toEqual({
        id: apiId,
        config: {
          name: 'Orders API',
          base_url: 'https://orders.example.com/v1',
          auth_type: 'api_key',
        },
      });
      const list = (await app.get('/custom_api').expect(200)).body.data;
      expect(list).toContainEqual(res.body.data);
    });

    it('lists an API configured without base_url without one', async () => {
      const res = await app.post('/custom_api/configure', { name: 'Absolute only' }).expect(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        config: { name: 'Absolute only', auth_type: 'none' },
      });
      const list = (await app.get('/custom_api').expect(200)).body.data;
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
        [
          // Found by the fuzzer: a bad header name in the path broke "split on the first ':'".
          {
            auth_type: 'custom',
            auth_config: { header_name: 'X-Key', token: 't', headers: { ':`r': 'v' } },
          },
          ['auth_config.headers: ":`r" is not an HTTP header name'],
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
        const res = await app.post('/custom_api/configure', { name: 'x', ...fields }).expect(400);
        expect(res.body.message).toEqual(messages);
      }
      const injected = await app
        .post('/custom_api/configure', {
          name: 'x',
          auth_type: 'bearer',
          auth_config: { token: 'a\r\nX-Evil: 1' },
        })
        .expect(400);
      expect(injected.body.code).toBe('validation_error');
      await app.post('/custom_api/configure', { name: 'x', auth_type: 'oauth9' }).expect(400);
      await app.post('/custom_api/configure', { name: 'x', base_url: 'not a url' }).expect(400);
    });

    it('adds, lists and deletes tools, each an action of the agent', async () => {
      const tool = await app
        .post(`/custom_api/${apiId}/tools`, {
          name: 'Get Order Status',
          http_method: 'GET',
          url_template: '/orders/{order_id}',
          description: 'Look up an order',
          url_params: [{ name: 'order_id', type: 'string', required: true }],
          headers_template: { Accept: 'application/json' },
          response_mapping: { fields: { status: '$.status' } },
          category: 'orders',
          require_human_approval: false,
          timeout: 10,
        })
        .expect(201);
      expect(tool.body.data).toEqual({
        id: expect.any(String),
        action_name: 'get_order_status',
        name: 'Get Order Status',
        description: 'Look up an order',
        category: 'orders',
        is_enabled: true,
      });
      const duplicate = await app
        .post(`/custom_api/${apiId}/tools`, {
          name: 'get order status',
          http_method: 'POST',
          url_template: '/x',
        })
        .expect(409);
      expect(duplicate.body.code).toBe('conflict');
      const tools = (await app.get(`/custom_api/${apiId}/tools`).expect(200)).body.data;
      expect(tools).toEqual([tool.body.data]);
      const actions = (await app.t.api().get(`${API}/agents/${app.agentId}/actions`)).body.data;
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
      await app.t
        .api()
        .delete(`${app.base}/custom_api/${apiId}/tools/${tool.body.data.id}`)
        .expect(200);
      expect((await app.get(`/custom_api/${apiId}/tools`).expect(200)).body.data).toEqual([]);
      await app.t
        .api()
        .delete(`${app.base}/custom_api/${apiId}/tools/${tool.body.data.id}`)
        .expect(404);
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
        const res = await app.post(`/custom_api/${apiId}/tools`, body).expect(400);
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
        const res = await app
          .post(`/custom_api/${apiId}/tools`, {
            name: 'Metadata',
            http_method: 'GET',
            url_template,
          })
          .expect(400);
        expect(res.body.message).toEqual([
          'url_template: must be a path starting with a single / or an http(s) URL, without backslashes',
        ]);
      }
    });

    it('refuses a url_template whose placeholder would fill the host, so the model cannot pick where the credentials go', async () => {
      for (const url_template of [
        'https://{host}/latest',
        'https://{tenant}.shop.example/orders',
        'https://shop.example{suffix}/orders',
        'https://shop.example:{port}/orders',
        'https://{user}@shop.example/orders',
      ]) {
        const res = await app
          .post(`/custom_api/${apiId}/tools`, {
            name: 'Anywhere',
            http_method: 'GET',
            url_template,
          })
          .expect(400);
        expect(res.body).toMatchObject({
          code: 'validation_error',
          message: [
            "url_template: a placeholder may not fill the host (it comes from base_url or the template's own text)",
          ],
        });
      }
      const tools = (await app.get(`/custom_api/${apiId}/tools`).expect(200)).body.data;
      expect(tools.some((tool: { name: string }) => tool.name === 'Anywhere')).toBe(false);
    });

    it('gives a tool the category "custom" when none is sent', async () => {
      const tool = await app
        .post(`/custom_api/${apiId}/tools`, {
          name: 'Uncategorised',
          http_method: 'GET',
          url_template: '/things',
        })
        .expect(201);
      expect(tool.body.data.category).toBe('custom');
      const nulled = await app
        .post(`/custom_api/${apiId}/tools`, {
          name: 'Nulled',
          http_method: 'GET',
          url_template: '/things',
          category: null,
        })
        .expect(201);
      expect(nulled.body.data.category).toBe('custom');
      const listed = (await app.get(`/custom_api/${apiId}/tools`).expect(200)).body.data;
      expect(listed.map((tool: { category: string }) => tool.category)).toEqual([
        'custom',
        'custom',
      ]);
      const summary = (await app.get('').expect(200)).body.data.find(
        (i: { id: string }) => i.id === apiId,
      );
      expect(summary.actions.map((a: { category: string }) => a.category)).toEqual([
        'custom',
        'custom',
      ]);
    });

    it('deletes an API with its tools', async () => {
      const api = await app
        .post('/custom_api/configure', {
          name: 'Temp',
          base_url: 'https://app.t.example.com',
        })
        .expect(201);
      const tool = await app
        .post(`/custom_api/${api.body.data.id}/tools`, {
          name: 'Ping',
          http_method: 'GET',
          url_template: '/ping',
        })
        .expect(201);
      await app.t.api().delete(`${app.base}/custom_api/${api.body.data.id}`).expect(200);
      const actions = (await app.t.api().get(`${API}/agents/${app.agentId}/actions`)).body.data;
      expect(actions.map((a: { id: string }) => a.id)).not.toContain(tool.body.data.id);
      await app.get(`/custom_api/${api.body.data.id}/tools`).expect(404);
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
      const solo = await createAgent(app.t);
      const soloBase = `${API}/agents/${solo.id}/integrations`;
      await configureIntegration(app.t, solo.id, 'bimpeai', {
        type: 'stripe',
        secret_key: secrets[0],
      });
      await configureIntegration(app.t, solo.id, 'bimpeai', { type: 'bumpa', token: secrets[1] });
      const api = await configureIntegration(app.t, solo.id, 'custom_api', {
        name: 'Shop',
        base_url: 'https://shop.example.com',
        auth_type: 'bearer',
        auth_config: { token: secrets[2] },
      });
      await createTool(app.t, solo.id, api.id, {
        name: 'Orders',
        http_method: 'GET',
        url_template: '/orders',
        auth_type: 'basic',
        auth_config: { username: 'u', password: secrets[3] },
      });
      const rows = [
        ...(await app.t.dataSource().query('SELECT * FROM integrations')),
        ...(await app.t.dataSource().query('SELECT * FROM actions')),
      ];
      const dump = JSON.stringify(rows);
      for (const secret of secrets) {
        expect(dump).not.toContain(secret);
      }
      expect(rows.some((row: { secrets: string | null }) => row.secrets?.startsWith('v1.'))).toBe(
        true,
      );
      const responses = [
        await app.t.api().get(`${soloBase}`),
        await app.t.api().get(`${soloBase}/custom_api`),
        await app.t.api().get(`${soloBase}/custom_api/${api.id}/tools`),
        await app.t.api().get(`${API}/agents/${solo.id}`),
      ];
      for (const res of responses) {
        for (const secret of secrets) {
          expect(res.text).not.toContain(secret);
        }
      }
    });
  });
});
