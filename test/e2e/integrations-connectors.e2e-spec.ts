import { createAgent } from '../factories/agents';
import { configureIntegration, useAgentIntegrations } from '../factories/integrations';
import { API } from '../factories/test-app';

describe('integrations: built-in connectors, pipedream, actions', () => {
  const app = useAgentIntegrations({ DASHBOARD_URL: 'https://dash.example.com/' });

  describe('built-in connectors (bimpeai)', () => {
    it('lists one row per type, unconfigured ones with a null id', async () => {
      const res = await app.get('/bimpeai').expect(200);
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
      const res = await app
        .post('/bimpeai/configure', {
          type: 'stripe',
          secret_key: 'sk_live_stripe_secret_1',
          public_key: 'pk_live_1',
          currency: 'NGN',
        })
        .expect(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        type: 'stripe',
        status: 'connected',
        is_connected: true,
        onboarding_url: `https://dash.example.com/agents/${app.agentId}/integrations/stripe?integration_id=${res.body.data.id}`,
      });
      const row = (await app.get('/bimpeai').expect(200)).body.data.find(
        (r: { type: string }) => r.type === 'stripe',
      );
      expect(row).toEqual({
        id: res.body.data.id,
        type: 'stripe',
        name: 'Stripe',
        status: 'connected',
        is_connected: true,
      });
      const actions = (await app.t.api().get(`${API}/agents/${app.agentId}/actions`).expect(200))
        .body.data;
      expect(actions.map((a: { action_name: string }) => a.action_name)).toEqual(
        expect.arrayContaining(['create_payment_link', 'get_payment_status', 'refund_payment']),
      );
    });

    it.each([
      ['bumpa', { token: 'bumpa-token-1' }, ''],
      ['google_calendar', {}, '/connect'],
      ['google_sheets', {}, '/connect'],
      ['paystack', { secret_key: 'sk_live_paystack_1' }, ''],
      ['stripe', { secret_key: 'sk_live_stripe_2' }, ''],
    ])('answers %s with an onboarding URL into the dashboard', async (type, credentials, page) => {
      const agentId = (await createAgent(app.t)).id;
      const data = await configureIntegration(app.t, agentId, 'bimpeai', { type, ...credentials });
      expect(data.onboarding_url).toBe(
        `https://dash.example.com/agents/${agentId}/integrations/${type}${page}?integration_id=${data.id}`,
      );
    });

    it('keeps an OAuth connector pending with an onboarding URL into the dashboard', async () => {
      const res = await app.post('/bimpeai/configure', { type: 'google_calendar' }).expect(201);
      const id = res.body.data.id;
      expect(res.body.data).toEqual({
        id,
        type: 'google_calendar',
        status: 'pending',
        is_connected: false,
        onboarding_url: `https://dash.example.com/agents/${app.agentId}/integrations/google_calendar/connect?integration_id=${id}`,
      });
      const all = (await app.get('').expect(200)).body.data;
      const calendar = all.find((i: { id: string }) => i.id === id);
      expect(calendar.actions.map((a: { action_name: string }) => a.action_name)).toEqual(
        expect.arrayContaining(['check_availability', 'book_appointment']),
      );
    });

    it('reconfigures in place rather than adding a second one', async () => {
      const first = await app.post('/bimpeai/configure', { type: 'paystack' }).expect(201);
      expect(first.body.data).toMatchObject({
        status: 'pending',
        onboarding_url: `https://dash.example.com/agents/${app.agentId}/integrations/paystack?integration_id=${first.body.data.id}`,
      });
      const second = await app
        .post('/bimpeai/configure', {
          type: 'paystack',
          secret_key: 'sk_paystack_9',
        })
        .expect(201);
      expect(second.body.data).toMatchObject({
        id: first.body.data.id,
        status: 'connected',
        is_connected: true,
      });
      const rows = (await app.get('/bimpeai').expect(200)).body.data.filter(
        (r: { type: string }) => r.type === 'paystack',
      );
      expect(rows).toHaveLength(1);
    });

    it('refuses fields a connector does not use, and unknown types', async () => {
      const res = await app
        .post('/bimpeai/configure', { type: 'bumpa', secret_key: 'x' })
        .expect(400);
      expect(res.body.message).toEqual(['secret_key: is not used by bumpa']);
      await app.post('/bimpeai/configure', { type: 'shopify' }).expect(400);
      await app.post('/bimpeai/configure', { type: 'stripe', currency: 'naira' }).expect(400);
    });

    it('refuses credentials that cannot travel in a header before calling the provider', async () => {
      const token = await app
        .post('/bimpeai/configure', { type: 'bumpa', token: 'bumpa\r\nX-Injected: 1' })
        .expect(400);
      expect(token.body.message).toEqual([
        'token: must not contain control or non-Latin-1 characters',
      ]);
      const secret = await app
        .post('/bimpeai/configure', { type: 'stripe', secret_key: 'sk_live\n' })
        .expect(400);
      expect(secret.body.message).toEqual([
        'secret_key: must not contain control or non-Latin-1 characters',
      ]);
      const rows = (await app.get('/bimpeai').expect(200)).body.data.filter(
        (r: { type: string; id: string | null }) => r.type === 'bumpa' && r.id !== null,
      );
      expect(rows).toHaveLength(0);
    });

    it('disconnects, removing the connector and its actions', async () => {
      const connected = await app
        .post('/bimpeai/configure', {
          type: 'bumpa',
          token: 'bumpa-token',
        })
        .expect(201);
      await app.t.api().delete(`${app.base}/bimpeai/${connected.body.data.id}`).expect(200);
      const row = (await app.get('/bimpeai').expect(200)).body.data.find(
        (r: { type: string }) => r.type === 'bumpa',
      );
      expect(row.id).toBeNull();
      const actions = (await app.t.api().get(`${API}/agents/${app.agentId}/actions`)).body.data;
      expect(
        actions.some(
          (a: { integration_id: string }) => a.integration_id === connected.body.data.id,
        ),
      ).toBe(false);
      await app.t.api().delete(`${app.base}/bimpeai/${connected.body.data.id}`).expect(404);
    });
  });

  describe('pipedream', () => {
    it('stores the app and answers an onboarding URL; disconnect removes it', async () => {
      const res = await app
        .post('/pipedream/configure', {
          app_slug: 'google_drive',
          app_icon: 'https://icons.example.com/drive.png',
        })
        .expect(201);
      const id = res.body.data.id;
      expect(res.body.data).toEqual({
        id,
        channel_type: 'pipedream',
        config: {
          app_slug: 'google_drive',
          app_name: 'Google Drive',
          app_icon: 'https://icons.example.com/drive.png',
          server_url: `https://remote.mcp.pipedream.net/${app.agentId}/google_drive`,
        },
        onboarding_url: `https://dash.example.com/agents/${app.agentId}/integrations/pipedream/google_drive/connect?integration_id=${id}`,
      });
      const { onboarding_url: _url, ...item } = res.body.data;
      expect((await app.get('/pipedream').expect(200)).body.data).toEqual([item]);
      await app.t.api().delete(`${app.base}/pipedream/${id}`).expect(200);
      expect((await app.get('/pipedream').expect(200)).body.data).toEqual([]);
      await app.post('/pipedream/configure', { app_slug: 'Bad Slug!' }).expect(400);
    });
  });

  describe('actions', () => {
    it("enables and disables in bulk, counting only the agent's own ids", async () => {
      const other = await createAgent(app.t);
      await configureIntegration(app.t, other.id, 'bimpeai', { type: 'google_sheets' });
      const foreign = (await app.t.api().get(`${API}/agents/${other.id}/actions`)).body.data.map(
        (a: { id: string }) => a.id,
      );
      const mine = (await app.t.api().get(`${API}/agents/${app.agentId}/actions`)).body.data.map(
        (a: { id: string }) => a.id,
      );
      expect(mine.length).toBeGreaterThan(1);
      const disable = await app.t
        .api()
        .post(`${API}/agents/${app.agentId}/actions/disable`)
        .send({ action_ids: [mine[0], mine[1], mine[0], ...foreign, 'not-an-id'] })
        .expect(200);
      expect(disable.body).toEqual({
        message: 'Actions disabled successfully',
        data: { updated_count: 2 },
      });
      const after = (await app.t.api().get(`${API}/agents/${app.agentId}/actions`)).body.data;
      expect(
        after
          .filter((a: { is_enabled: boolean }) => !a.is_enabled)
          .map((a: { id: string }) => a.id)
          .sort(),
      ).toEqual([mine[0], mine[1]].sort());
      const untouched = (await app.t.api().get(`${API}/agents/${other.id}/actions`)).body.data;
      expect(untouched.every((a: { is_enabled: boolean }) => a.is_enabled)).toBe(true);
      const enable = await app.t
        .api()
        .post(`${API}/agents/${app.agentId}/actions/enable`)
        .send({ action_ids: [mine[0]] })
        .expect(200);
      expect(enable.body.data).toEqual({ updated_count: 1 });
      await app.t
        .api()
        .post(`${API}/agents/${app.agentId}/actions/enable`)
        .send({ action_ids: 'all' })
        .expect(400);
    });
  });

  describe('the family-wide list', () => {
    beforeAll(async () => {
      await configureIntegration(app.t, app.agentId, 'custom_api', {
        name: 'Orders API',
        base_url: 'https://orders.example.com/v1',
      });
    });

    it('shows every integration with its config fields and actions', async () => {
      const list = (await app.get('').expect(200)).body.data;
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
