import { ActionExecutors } from '@/modules/integrations/actions/action-executors';
import { ExecutableAction } from '@/modules/integrations/actions/action-executor';
import { ActionEntity } from '@/modules/integrations/entities/action.entity';
import { IntegrationsService } from '@/modules/integrations/integrations.service';
import { createAgent } from '../factories/agents';
import { configureIntegration, createTool } from '../factories/integrations';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { FakeProviders, startFakeProviders } from '../support/fake-providers';
import { FakeShopApi, startFakeShopApi } from '../support/fake-shop-api';

/**
 * The executors the action runner calls, taken from the running application and run against
 * local fakes over real HTTP: a shop's API for custom API tools, and Stripe, Paystack and Bumpa.
 */
describe('action executors', () => {
  let shop: FakeShopApi;
  let fake: FakeProviders;
  let t: TestApp;
  let team: TeamKey;
  let agentId: string;
  let executors: ActionExecutors;
  let integrations: IntegrationsService;

  /** The agent's action of that name (of that integration type, when two share the name). */
  const target = async (actionName: string, type?: string): Promise<ExecutableAction> => {
    const found = (await integrations.executableActions(team.teamId, agentId)).find(
      (candidate) =>
        candidate.action.actionName === actionName &&
        (!type || candidate.integration.type === type),
    );
    if (!found) {
      throw new Error(`no executable action ${actionName}`);
    }
    return found;
  };
  const run = async (actionName: string, args: Record<string, unknown> = {}, type?: string) =>
    executors.execute(await target(actionName, type), args);

  beforeAll(async () => {
    [shop, fake] = await Promise.all([startFakeShopApi(), startFakeProviders()]);
    t = await startTestApp({ ...fake.env, OUTBOUND_TIMEOUT_MS: '1500' });
    team = await t.createKey('acting-team', ['*']);
    agentId = (await createAgent(t, {}, team.key)).id;
    executors = t.app.get(ActionExecutors);
    integrations = t.app.get(IntegrationsService);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([shop.close(), fake.close()]);
  });

  describe('custom API tools', () => {
    let apiId: string;
    const tool = (body: Record<string, unknown>) => createTool(t, agentId, apiId, body, team.key);

    beforeAll(async () => {
      apiId = (
        await configureIntegration(
          t,
          agentId,
          'custom_api',
          {
            name: 'Orders API',
            base_url: `${shop.url}/v1`,
            auth_type: 'api_key',
            auth_config: { api_key: 'shop-secret-1', header_name: 'X-Shop-Key' },
          },
          team.key,
        )
      ).id;
      await tool({
        name: 'Get order status',
        http_method: 'GET',
        url_template: '/orders/{order_id}',
        url_params: [
          { name: 'order_id', type: 'string', description: 'The order', required: true },
        ],
        response_mapping: {
          path: '$.data.order',
          fields: { amount: 'data.order.total' },
          success_message: 'Order {{order_id}} is {{status}} ({{amount}})',
          error_message: 'Sorry, I could not find order {{order_id}}',
        },
      });
      await tool({
        name: 'Create order',
        http_method: 'POST',
        url_template: '/echo',
        url_params: [{ name: 'source', type: 'string' }],
        body_params: [
          { name: 'sku', type: 'string', required: true },
          { name: 'quantity', type: 'integer', required: true },
        ],
      });
      await tool({
        name: 'Templated order',
        http_method: 'PUT',
        url_template: '/echo',
        headers_template: { 'X-Customer': '{customer}' },
        body_params: [{ name: 'qty', type: 'integer', required: true }],
        body_template: '{"order": {"sku": "{sku}", "qty": {qty}}, "note": "for {customer}"}',
      });
      await tool({ name: 'Slow', http_method: 'GET', url_template: '/slow?ms=3000', timeout: 1 });
      await tool({ name: 'Huge', http_method: 'GET', url_template: '/huge' });
      await tool({ name: 'Moved', http_method: 'GET', url_template: '/moved' });
      await tool({
        name: 'Own key',
        http_method: 'GET',
        url_template: '/orders/{order_id}',
        auth_type: 'api_key',
        auth_config: { api_key: 'tool-secret-2', header_name: 'X-Shop-Key' },
      });
      // A tool stored before templated hosts were refused: its host left to an argument.
      const anywhere = await tool({
        name: 'Anywhere',
        http_method: 'GET',
        url_template: '/latest',
      });
      await t
        .dataSource()
        .getRepository(ActionEntity)
        .update(anywhere.id, {
          config: { http_method: 'GET', url_template: 'http://{host}/latest', auth_type: 'none' },
        });
    });
    beforeEach(() => {
      shop.requests.length = 0;
      shop.requiredHeader = ['x-shop-key', 'shop-secret-1'];
    });

    it("offers the tool's parameters as a JSON Schema", async () => {
      expect(executors.parametersOf(await target('get_order_status'))).toEqual({
        type: 'object',
        properties: { order_id: { type: 'string', description: 'The order' } },
        required: ['order_id'],
        additionalProperties: false,
      });
      expect(executors.parametersOf(await target('templated_order'))).toEqual({
        type: 'object',
        properties: {
          qty: { type: 'integer' },
          customer: { type: 'string' },
          sku: { type: 'string' },
        },
        required: ['qty', 'customer', 'sku'],
        additionalProperties: false,
      });
    });

    it("calls the shop with the API's key and hands back what response_mapping picks", async () => {
      expect(await run('get_order_status', { order_id: 'A1' })).toEqual({
        ok: true,
        result: { id: 'A1', status: 'shipped', total: 25.5 },
        customerText: 'Order A1 is shipped (25.5)',
      });
      expect(await run('get_order_status', { order_id: 'Z9' })).toEqual({
        ok: false,
        error: 'Orders API answered 404: {"error":"order Z9 not found"}',
        customerText: 'Sorry, I could not find order Z9',
      });
      shop.requests.splice(1);
      expect(shop.requests).toHaveLength(1);
      expect(shop.requests[0]).toMatchObject({
        method: 'GET',
        url: '/v1/orders/A1',
        headers: expect.objectContaining({ 'x-shop-key': 'shop-secret-1' }),
      });
    });

    it('sends the arguments not used in the URL as the JSON body', async () => {
      const result = await run('create_order', { source: 'chat', sku: 'S-9', quantity: 2 });
      expect(result).toEqual({
        ok: true,
        result: {
          method: 'POST',
          received: { sku: 'S-9', quantity: 2 },
          query: { source: 'chat' },
        },
      });
    });

    it('never hands on the key the API was sent, even when its answer quotes it', async () => {
      const result = await run('create_order', { sku: 'shop-secret-1', quantity: 1 });
      expect(result).toEqual({
        ok: true,
        result: { method: 'POST', received: { sku: '[redacted]', quantity: 1 }, query: {} },
      });
    });

    it('fills header and body templates, the values JSON-encoded in their place', async () => {
      const result = await run('templated_order', { customer: 'Ada "A"', sku: 'S-1', qty: 3 });
      expect(result).toEqual({
        ok: true,
        result: {
          method: 'PUT',
          received: { order: { sku: 'S-1', qty: 3 }, note: 'for Ada "A"' },
          query: {},
        },
      });
      expect(shop.requests[0].headers['x-customer']).toBe('Ada "A"');
    });

    it("uses the tool's own auth over its API's", async () => {
      shop.requiredHeader = ['x-shop-key', 'tool-secret-2'];
      expect(await run('own_key', { order_id: 'B2' })).toMatchObject({ ok: true });
      expect(shop.requests[0].headers['x-shop-key']).toBe('tool-secret-2');
    });

    it('fails honestly: an error answer, bad arguments, a refused address', async () => {
      expect(await run('get_order_status', { order_id: 'Z9' })).toEqual({
        ok: false,
        error: 'Orders API answered 404: {"error":"order Z9 not found"}',
        customerText: 'Sorry, I could not find order Z9',
      });
      shop.requiredHeader = ['x-shop-key', 'rotated'];
      expect(await run('get_order_status', { order_id: 'A1' })).toEqual({
        ok: false,
        error: 'Orders API answered 401: {"error":"missing or wrong key"}',
        customerText: 'Sorry, I could not find order A1',
      });
      shop.requests.length = 0;
      expect(await run('create_order', { sku: 5 })).toEqual({
        ok: false,
        error: 'Create order needs other arguments: quantity: is required; sku: must be a string',
      });
      expect(await run('anywhere', { host: '169.254.169.254' })).toEqual({
        ok: false,
        error:
          "Anywhere could not be called: its url_template: a placeholder may not fill the host (it comes from base_url or the template's own text)",
      });
      expect(shop.requests).toEqual([]);
    });

    it('gives up on a tool that does not answer within its timeout', async () => {
      const started = Date.now();
      expect(await run('slow')).toEqual({
        ok: false,
        error: 'Orders API did not answer within 1 s',
      });
      expect(Date.now() - started).toBeLessThan(2500);
    });

    it('refuses an answer too large to read, and does not follow redirects', async () => {
      expect(await run('huge')).toEqual({
        ok: false,
        error: 'Orders API answered more than 1024 KB',
      });
      expect(await run('moved')).toEqual({
        ok: false,
        error: 'Orders API answered 302: a redirect to /v1/orders/A1, which is not followed',
      });
      expect(shop.requests.map((request) => request.url)).toEqual(['/v1/huge', '/v1/moved']);
    });

    it('refuses tool settings it could not use, when the tool is added', async () => {
      const res = await t
        .api(team.key)
        .post(`${API}/agents/${agentId}/integrations/custom_api/${apiId}/tools`)
        .send({
          name: 'Bad',
          http_method: 'GET',
          url_template: '/x',
          url_params: [{ name: 'id', type: 'uuid' }],
          response_mapping: { path: 'the status', status: '$.status' },
        })
        .expect(400);
      expect(res.body.message).toEqual([
        'url_params.0.type: must be one of string, number, integer, boolean, object, array',
        'response_mapping.status: is not allowed',
        'response_mapping.path: must be a path into the answer, such as "$.data.order.status"',
      ]);
    });
  });

  describe('built-in connectors', () => {
    beforeAll(async () => {
      const configure = (body: Record<string, unknown>) =>
        configureIntegration(t, agentId, 'bimpeai', body, team.key);
      await configure({ type: 'stripe', secret_key: 'sk_exec_stripe', currency: 'NGN' });
      await configure({ type: 'paystack', secret_key: 'sk_exec_paystack' });
      await configure({
        type: 'bumpa',
        token: 'bumpa-exec-secret',
        public_key: 'bumpa-exec-public',
      });
      await configure({ type: 'google_calendar' });
      await configureIntegration(t, agentId, 'pipedream', { app_slug: 'slack' }, team.key);
    });
    beforeEach(() => {
      fake.requests.length = 0;
      fake.outage = null;
    });

    it('gives each catalogue action its own JSON Schema', async () => {
      expect(executors.parametersOf(await target('create_payment_link'))).toMatchObject({
        type: 'object',
        properties: {
          amount: { type: 'number' },
          currency: { type: 'string' },
          description: { type: 'string' },
        },
        required: ['amount', 'description'],
        additionalProperties: false,
      });
      expect(executors.parametersOf(await target('verify_transaction'))).toMatchObject({
        required: ['reference'],
      });
    });

    it('creates a Stripe payment link: a price, then a link selling it', async () => {
      const result = await run('create_payment_link', { amount: 25.5, description: 'Jollof rice' });
      expect(result).toEqual({
        ok: true,
        result: {
          url: expect.stringMatching(/^https:\/\/buy\.stripe\.com\/test_plink_/),
          payment_link_id: expect.stringMatching(/^plink_/),
          amount: 25.5,
          quantity: 1,
          currency: 'NGN',
          description: 'Jollof rice',
        },
        customerText: `Here is your payment link: ${(result as { result: { url: string } }).result.url}`,
      });
      expect(fake.requests.map((r) => [r.method, r.path, r.key, r.contentType])).toEqual([
        ['POST', '/v1/prices', 'sk_exec_stripe', 'application/x-www-form-urlencoded'],
        ['POST', '/v1/payment_links', 'sk_exec_stripe', 'application/x-www-form-urlencoded'],
      ]);
      expect(Object.fromEntries(new URLSearchParams(fake.requests[0].body))).toEqual({
        currency: 'ngn',
        unit_amount: '2550',
        'product_data[name]': 'Jollof rice',
      });
      expect(new URLSearchParams(fake.requests[1].body).get('line_items[0][quantity]')).toBe('1');
    });

    it('reads and refunds a Stripe payment', async () => {
      fake.stripePaymentIntents.set('pi_paid_1', {
        id: 'pi_paid_1',
        object: 'payment_intent',
        status: 'succeeded',
        amount: 1000,
        amount_received: 1000,
        currency: 'usd',
      });
      expect(await run('get_payment_status', { payment_id: 'pi_paid_1' })).toEqual({
        ok: true,
        result: {
          payment_id: 'pi_paid_1',
          status: 'succeeded',
          paid: true,
          amount: 10,
          amount_received: 10,
          currency: 'USD',
        },
      });
      expect(
        await run('refund_payment', { payment_id: 'pi_paid_1', amount: 4, currency: 'USD' }),
      ).toEqual({
        ok: true,
        result: {
          refund_id: expect.stringMatching(/^re_/),
          status: 'succeeded',
          amount: 4,
          currency: 'USD',
        },
        customerText: 'Your refund of 4 USD has been started.',
      });
      fake.stripeCheckoutSessions.push({
        id: 'cs_paid_1',
        object: 'checkout.session',
        payment_link: 'plink_sold_1',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 250000,
        currency: 'ngn',
      });
      const paidSession = {
        session_id: 'cs_paid_1',
        status: 'complete',
        payment_status: 'paid',
        paid: true,
        amount: 2500,
        currency: 'NGN',
      };
      expect(await run('get_payment_status', { payment_id: 'cs_paid_1' })).toEqual({
        ok: true,
        result: paidSession,
      });
      expect(await run('get_payment_status', { payment_id: 'plink_sold_1' })).toEqual({
        ok: true,
        result: { payment_link_id: 'plink_sold_1', paid: true, checkouts: [paidSession] },
      });
      expect(await run('get_payment_status', { payment_id: 'plink_unsold' })).toEqual({
        ok: true,
        result: { payment_link_id: 'plink_unsold', paid: false, checkouts: [] },
      });
      expect(fake.requests.map((r) => r.path).slice(-2)).toEqual([
        '/v1/checkout/sessions?payment_link=plink_sold_1&limit=10',
        '/v1/checkout/sessions?payment_link=plink_unsold&limit=10',
      ]);
      expect(await run('get_payment_status', { payment_id: 'pi_unknown' })).toEqual({
        ok: false,
        error: "Stripe answered 404: No such payment_intent: 'pi_unknown'",
      });
      expect(await run('get_payment_status', { payment_id: 'order 12' })).toEqual({
        ok: false,
        error:
          'Stripe payment ids start with pi_ (a payment), cs_ (a checkout) or plink_ (a payment link)',
      });
    });

    it('starts and verifies a Paystack payment, amounts in kobo on the wire', async () => {
      const started = await run('initialize_transaction', {
        email: 'ada@example.com',
        amount: 1500,
        reference: 'order-77',
      });
      expect(started).toEqual({
        ok: true,
        result: {
          url: expect.stringMatching(/^https:\/\/checkout\.paystack\.com\//),
          reference: 'order-77',
          amount: 1500,
          currency: 'NGN',
        },
        customerText: expect.stringMatching(
          /^Here is your payment link: https:\/\/checkout\.paystack\.com\//,
        ),
      });
      expect(JSON.parse(fake.requests[0].body)).toEqual({
        email: 'ada@example.com',
        amount: '150000',
        reference: 'order-77',
      });
      expect(fake.requests[0].key).toBe('sk_exec_paystack');
      fake.paystackTransactions.get('order-77')!.status = 'success';
      expect(await run('verify_transaction', { reference: 'order-77' })).toMatchObject({
        ok: true,
        customerText: 'The status of payment order-77 is success.',
        result: {
          reference: 'order-77',
          status: 'success',
          paid: true,
          amount: 1500,
          currency: 'NGN',
        },
      });
      expect(await run('refund_transaction', { reference: 'order-77' })).toMatchObject({
        ok: true,
        result: { status: 'pending', amount: 1500 },
      });
      expect(await run('verify_transaction', { reference: 'nope' })).toEqual({
        ok: false,
        error: 'Paystack answered 400: Transaction reference not found',
        customerText: 'Sorry, I could not check payment nope just now.',
      });
    });

    it('looks up Bumpa products with the public key and orders with the secret one', async () => {
      fake.bumpaProducts.push({ id: 11, name: 'Ankara dress', price: '15000.00', quantity: 4 });
      fake.bumpaOrders.push(
        ...Array.from({ length: 150 }, (_, i) => ({
          id: 1000 + i,
          order_number: `BMP-${1000 + i}`,
          status: i === 140 ? 'delivered' : 'pending',
          payment_status: 'paid',
          total: '100.00',
        })),
      );
      expect(await run('list_products', { limit: 5 })).toEqual({
        ok: true,
        result: {
          products: [
            {
              id: 11,
              name: 'Ankara dress',
              price: '15000.00',
              max_price: null,
              quantity: 4,
              description: null,
            },
          ],
          page: 1,
        },
      });
      expect(await run('get_order_status', { order_id: '#BMP-1140' }, 'bumpa')).toMatchObject({
        ok: true,
        result: { order_id: 1140, order_number: 'BMP-1140', status: 'delivered' },
      });
      expect(fake.requests.map((r) => [r.path, r.key])).toEqual([
        ['/products?page=1&limit=5', 'bumpa-exec-public'],
        ['/orders?page=1&limit=100', 'bumpa-exec-secret'],
        ['/orders?page=2&limit=100', 'bumpa-exec-secret'],
      ]);
      expect(await run('get_order_status', { order_id: 'BMP-9' }, 'bumpa')).toEqual({
        ok: false,
        error: 'Bumpa has no recent order BMP-9',
        customerText: 'Sorry, I could not find order BMP-9 just now.',
      });
      expect(
        await run('create_order', { product_id: '11', quantity: 1, customer_name: 'Ada' }, 'bumpa'),
      ).toEqual({
        ok: false,
        error: expect.stringContaining("Bumpa's public API has no call that creates an order"),
        customerText: 'Sorry, I could not place your order just now.',
      });
    });

    it('says when the provider refuses the key or fails', async () => {
      fake.refused.add('sk_exec_stripe');
      try {
        expect(await run('create_payment_link', { amount: 5, description: 'Tea' })).toEqual({
          ok: false,
          error:
            "Stripe refused the connector's key (401: Invalid API Key provided: [redacted]): update it in the dashboard",
          customerText: 'Sorry, I could not create a payment link just now.',
        });
      } finally {
        fake.refused.delete('sk_exec_stripe');
      }
      fake.refused.add('sk_exec_paystack');
      try {
        expect(await run('verify_transaction', { reference: 'order-77' })).toEqual({
          ok: false,
          error:
            "Paystack refused the connector's key (401: Invalid key [redacted]): update it in the dashboard",
          customerText: 'Sorry, I could not check payment order-77 just now.',
        });
      } finally {
        fake.refused.delete('sk_exec_paystack');
      }
      fake.outage = 503;
      expect(await run('verify_transaction', { reference: 'order-77' })).toEqual({
        ok: false,
        error: 'Paystack answered 503: Service unavailable',
        customerText: 'Sorry, I could not check payment order-77 just now.',
      });
      fake.outage = 'hang';
      expect(await run('list_products')).toEqual({
        ok: false,
        error: 'Bumpa did not answer within 1.5 s',
      });
    });

    it('says a pending Google connector and a Pipedream app cannot run actions here', async () => {
      expect(await run('check_availability', { date: '2026-12-01' })).toEqual({
        ok: false,
        error: 'Google Calendar is not connected yet: finish the connection in the dashboard',
      });
      const pipedream = (await integrations.executableActions(team.teamId, agentId)).find(
        (candidate) => candidate.integration.family === 'pipedream',
      );
      // Pipedream apps bring no actions of their own; a target of the family still gets an answer.
      const anyAction = await target('check_availability');
      expect(
        await executors.execute(
          {
            action: anyAction.action,
            integration: { ...anyAction.integration, family: 'pipedream', name: 'Slack' },
          },
          {},
        ),
      ).toEqual({
        ok: false,
        error: "Pipedream actions run in Pipedream's own workflows, not from this agent",
      });
      expect(pipedream).toBeUndefined();
      expect(fake.requests).toEqual([]);
    });
  });

  describe('what the runner may run', () => {
    it('lists enabled, available actions only, and finds any one of the agent by id', async () => {
      const before = await integrations.executableActions(team.teamId, agentId);
      const disabled = before[0].action;
      await t
        .api(team.key)
        .post(`${API}/agents/${agentId}/actions/disable`)
        .send({ action_ids: [disabled.id] })
        .expect(200);
      const after = await integrations.executableActions(team.teamId, agentId);
      expect(after.map((a) => a.action.id)).toEqual(
        before.filter((a) => a.action.id !== disabled.id).map((a) => a.action.id),
      );
      const one = await integrations.executableAction(team.teamId, agentId, disabled.id);
      expect(one?.action.isEnabled).toBe(false);
      expect(one?.integration.id).toBe(disabled.integrationId);
      const other = await createAgent(t, {}, team.key);
      expect(await integrations.executableAction(team.teamId, other.id, disabled.id)).toBeNull();
      const stranger = await t.createKey('stranger-team', ['*']);
      expect(await integrations.executableActions(stranger.teamId, agentId)).toEqual([]);
    });
  });
});
