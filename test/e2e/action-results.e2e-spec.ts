import { IncomingHttpHeaders } from 'node:http';
import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  issueTicket,
  PostedMessage,
  repliesSettled,
  sendAs,
} from '../factories/conversations';
import { configureIntegration, createTool } from '../factories/integrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { FakeProviders, startFakeProviders } from '../support/fake-providers';
import { FakeShopApi, startFakeShopApi } from '../support/fake-shop-api';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { McpTestServer, startMcpTestServer } from '../support/mcp-test-server';
import { openStream } from '../support/sse-client';
import { WebhookReceiver } from '../support/webhook-receiver';

const MCP_TOKEN = 'mcp-echo-token/with+chars=9f2';
const BASIC_USER = 'shop-user';
const BASIC_PASSWORD = 'basic-pass/+7=q';
const BASIC_HEADER = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString('base64')}`;
const MAX_RESULT_CHARS = 16_000;

const bearerOf = (headers: IncomingHttpHeaders) =>
  String(headers.authorization ?? '').replace(/^Bearer /, '');

/** Every form of `secrets` (as sent, URL-encoded, base64) that `text` holds. */
function leaksIn(text: string, secrets: string[]): string[] {
  return secrets
    .flatMap((secret) => [
      secret,
      encodeURIComponent(secret),
      Buffer.from(secret).toString('base64'),
    ])
    .filter((form) => text.includes(form));
}

/**
 * What an action hands back goes into the run, the conversation, the stream, webhook events and
 * the next model request: there it never holds a credential of the integration, never more than
 * 16,000 characters, and one model answer never runs more than LLM_MAX_TOOL_CALLS actions.
 */
describe('what actions hand back, and how many run', () => {
  let t: TestApp;
  let llm: LlmStub;
  let mcp: McpTestServer;
  let shop: FakeShopApi;
  let providers: FakeProviders;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    [llm, shop, providers, receiver] = await Promise.all([
      startLlmStub(),
      startFakeShopApi(),
      startFakeProviders(),
      WebhookReceiver.start(),
    ]);
    mcp = await startMcpTestServer([
      {
        name: 'whoami',
        description: 'Who the server thinks is calling',
        inputSchema: { type: 'object', properties: {} },
        call: (_args, headers) => ({
          text: `You are ${String(headers.authorization)}`,
          structuredContent: {
            authorization: headers.authorization,
            token: bearerOf(headers),
            link: `https://mcp.example/login?token=${encodeURIComponent(bearerOf(headers))}`,
          },
        }),
      },
      {
        name: 'catalogue',
        description: 'Every product',
        inputSchema: { type: 'object', properties: {} },
        call: () => ({
          text: 'The catalogue',
          structuredContent: {
            items: Array.from({ length: 40_000 }, (_, i) => ({
              sku: `SKU-${i}`,
              name: `Product ${i} `.padEnd(80, '.'),
            })),
          },
        }),
      },
      {
        name: 'expired',
        description: 'Always fails, quoting the credentials it was sent',
        inputSchema: { type: 'object', properties: {} },
        call: (_args, headers) => {
          throw new Error(
            `the token ${bearerOf(headers)} (${String(headers.authorization)}) has expired`,
          );
        },
      },
      {
        name: 'order_status',
        description: 'The status of an order',
        inputSchema: {
          type: 'object',
          properties: { order_id: { type: 'string' } },
          required: ['order_id'],
        },
        call: (args) => `Order ${String(args.order_id)} shipped`,
      },
    ]);
    t = await startTestApp({
      ...providers.env,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '5000',
      OUTBOUND_TIMEOUT_MS: '5000',
    });
    await createWebhook(t, receiver.url, [
      'message.created',
      'action_run.pending_approval',
      'action_run.completed',
    ]);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([
      llm.close(),
      mcp.close(),
      shop.close(),
      providers.close(),
      receiver.close(),
    ]);
  });
  beforeEach(() => {
    llm.toolCall = null;
    llm.toolCalls = null;
    llm.requests.length = 0;
    mcp.calls.length = 0;
    shop.requests.length = 0;
  });

  async function mcpAgent(): Promise<string> {
    const agentId: string = (await createAgent(t, { business_name: 'Shop' })).id;
    const server = await configureIntegration(t, agentId, 'mcp_server', {
      name: 'Echoing shop',
      server_url: `${mcp.url}/mcp`,
      auth_type: 'bearer',
      auth_config: { token: MCP_TOKEN },
    });
    await t
      .api()
      .post(`${API}/agents/${agentId}/integrations/mcp_server/${server.id}/discover`)
      .expect(200);
    return agentId;
  }

  async function runsOf(agentId: string): Promise<any[]> {
    const res = await t.api().get(`${API}/agents/${agentId}/action-runs?limit=100`).expect(200);
    return res.body.data;
  }

  /** What the customer's side sees, replayed from the first message: the stream's frames. */
  async function streamed(agentId: string, sent: PostedMessage): Promise<string> {
    const ticket = await issueTicket(t, agentId, sent.conversation_id);
    const stream = await openStream(
      `${t.url}${conversationsPath(agentId)}/${sent.conversation_id}/messages/stream?ticket=${ticket}&after=${sent.id}`,
    );
    await stream.waitFor(() => stream.messages().some((m) => m.message_type === 'text'));
    stream.close();
    return stream.frames.map((frame) => frame.raw).join('\n');
  }

  /** Everything that left the service about `agentId`'s conversation, as text. */
  async function everywhere(agentId: string, sent: PostedMessage): Promise<Record<string, string>> {
    const runs = await runsOf(agentId);
    await receiver.waitFor((events) =>
      runs.every((run) =>
        events.some((e) => e.body.type === 'action_run.completed' && e.body.data.id === run.id),
      ),
    );
    return {
      runs: JSON.stringify(runs),
      messages: JSON.stringify(await allMessages(t, agentId, sent.conversation_id)),
      stream: await streamed(agentId, sent),
      webhooks: receiver.received
        .filter((event) => JSON.stringify(event.body.data).includes(sent.conversation_id))
        .map((event) => event.rawBody)
        .join('\n'),
      model: JSON.stringify(llm.requests),
    };
  }

  it("masks an MCP server's echo of its bearer token in the run, messages, stream, webhooks and model request", async () => {
    const agentId = await mcpAgent();
    llm.toolCall = { name: 'whoami', arguments: {} };
    const sent = await sendAs(t, agentId, 'echo-buyer', 'Who am I to you?');
    await repliesSettled(t);

    const [run] = await runsOf(agentId);
    expect(run).toMatchObject({ action_name: 'whoami', status: 'succeeded' });
    expect(run.result).toEqual({
      authorization: 'Bearer [redacted]',
      token: '[redacted]',
      link: 'https://mcp.example/login?token=[redacted]',
    });
    const seen = await everywhere(agentId, sent);
    for (const [where, text] of Object.entries(seen)) {
      expect({ where, leaks: leaksIn(text, [MCP_TOKEN]) }).toEqual({ where, leaks: [] });
    }
    expect(seen.model).toContain('[redacted]');
  });

  it("masks a custom API's echo of its basic-auth header and the credentials it decodes", async () => {
    const agentId: string = (await createAgent(t, { business_name: 'Shop' })).id;
    const api = await configureIntegration(t, agentId, 'custom_api', {
      name: 'Echoing API',
      base_url: `${shop.url}/v1`,
      auth_type: 'basic',
      auth_config: { username: BASIC_USER, password: BASIC_PASSWORD },
    });
    await createTool(t, agentId, api.id, {
      name: 'Whoami',
      http_method: 'GET',
      url_template: '/whoami',
    });
    shop.requiredHeader = ['authorization', BASIC_HEADER];
    llm.toolCall = { name: 'whoami', arguments: {} };
    const sent = await sendAs(t, agentId, 'basic-buyer', 'Who am I to you?');
    await repliesSettled(t);

    expect(shop.requests).toHaveLength(1);
    const [run] = await runsOf(agentId);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(run.result).toEqual({
      authorization: '[redacted]',
      decoded: '[redacted]',
      user: BASIC_USER,
      password: '[redacted]',
      hint: 'log in again with [redacted]',
    });
    const seen = await everywhere(agentId, sent);
    const secrets = [BASIC_PASSWORD, `${BASIC_USER}:${BASIC_PASSWORD}`];
    for (const [where, text] of Object.entries(seen)) {
      expect({ where, leaks: leaksIn(text, secrets) }).toEqual({ where, leaks: [] });
    }
  });

  it('masks the token an MCP tool quotes in its error, in the run, the conversation and the model request', async () => {
    const agentId = await mcpAgent();
    llm.toolCall = { name: 'expired', arguments: {} };
    const sent = await sendAs(t, agentId, 'error-buyer', 'Try again please');
    await repliesSettled(t);
    const [run] = await runsOf(agentId);
    expect(run).toMatchObject({
      status: 'failed',
      error: 'Error: the token [redacted] (Bearer [redacted]) has expired',
      result: null,
    });
    const seen = await everywhere(agentId, sent);
    for (const [where, text] of Object.entries(seen)) {
      expect({ where, leaks: leaksIn(text, [MCP_TOKEN]) }).toEqual({ where, leaks: [] });
    }
    expect(seen.messages).toContain('Action expired failed: Error: the token [redacted]');
  });

  it('caps a 4 MB structuredContent at 16,000 characters in the run, its event and the model request', async () => {
    const agentId = await mcpAgent();
    llm.toolCall = { name: 'catalogue', arguments: {} };
    const sent = await sendAs(t, agentId, 'catalogue-buyer', 'What do you sell?');
    await repliesSettled(t);

    const [run] = await runsOf(agentId);
    expect(run.status).toBe('succeeded');
    expect(typeof run.result).toBe('string');
    expect(run.result.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(run.result).toMatch(
      /^\{"items":\[\{"sku":"SKU-0".*… \(cut: the answer had \d+ characters\)$/s,
    );
    const [completed] = (
      await receiver.waitFor((events) =>
        events.some((e) => e.body.type === 'action_run.completed' && e.body.data.id === run.id),
      )
    ).filter((e) => e.body.type === 'action_run.completed' && e.body.data.id === run.id);
    expect(completed.rawBody.length).toBeLessThan(MAX_RESULT_CHARS + 2_000);
    const toolMessage = llm.requests[1].messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({
      status: 'succeeded',
      result: run.result,
      message: 'The catalogue',
    });
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(JSON.stringify(messages).length).toBeLessThan(MAX_RESULT_CHARS);
  });

  it('runs at most LLM_MAX_TOOL_CALLS (8) of the 200 tool calls one model answer asks for', async () => {
    const agentId = await mcpAgent();
    llm.toolCalls = Array.from({ length: 200 }, (_, i) => ({
      name: 'order_status',
      arguments: { order_id: `N${i}` },
    }));
    const sent = await sendAs(t, agentId, 'greedy-buyer', 'Check all my orders');
    await repliesSettled(t);

    expect(mcp.calls).toHaveLength(8);
    expect(mcp.calls.map((call) => call.arguments.order_id)).toEqual(
      Array.from({ length: 8 }, (_, i) => `N${i}`),
    );
    const runs = await runsOf(agentId);
    expect(runs).toHaveLength(8);
    expect(runs.every((run) => run.status === 'succeeded')).toBe(true);
    // The model heard of every call it made: 8 results, then 192 refusals; after, no action is
    // offered (only the hand-off every model keeps).
    const [, second] = llm.requests;
    const answers = second.messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content));
    expect(answers).toHaveLength(200);
    expect(answers.slice(0, 8).every((answer) => answer.status === 'succeeded')).toBe(true);
    expect(answers.slice(8).every((answer) => answer.status === 'refused')).toBe(true);
    expect((second.tools ?? []).map((tool) => tool.function.name)).toEqual(['handoff_to_human']);
    expect(llm.requests).toHaveLength(2);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.filter((m) => m.message_type === 'action')).toHaveLength(8);
    await receiver.waitFor(
      (events) =>
        events.filter(
          (e) => e.body.type === 'action_run.completed' && e.body.data.agent_id === agentId,
        ).length === 8,
    );
  });

  it('never lets a Paystack reference such as ".." reach another endpoint than /transaction/verify', async () => {
    const agentId: string = (await createAgent(t, { business_name: 'Shop' })).id;
    await configureIntegration(t, agentId, 'bimpeai', {
      type: 'paystack',
      secret_key: 'sk_test_paystack_dots',
    });
    providers.paystackTransactions.set('someone-elses-ref', {
      reference: 'someone-elses-ref',
      status: 'success',
      amount: 100,
      currency: 'NGN',
    });
    providers.requests.length = 0;
    for (const reference of ['..', '.', '../..', '%2e%2e', 'a/../..', '..%2f']) {
      llm.toolCall = { name: 'verify_transaction', arguments: { reference } };
      await sendAs(t, agentId, `dots-${reference}`, `Did payment ${reference} go through?`);
      await repliesSettled(t);
    }
    expect(providers.requests).toEqual([]);
    const runs = await runsOf(agentId);
    expect(runs).toHaveLength(6);
    for (const run of runs) {
      expect(run).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/is not a Paystack reference/),
        result: null,
      });
    }
    llm.toolCall = { name: 'verify_transaction', arguments: { reference: 'someone-elses-ref' } };
    await sendAs(t, agentId, 'dots-real', 'Did my payment go through?');
    await repliesSettled(t);
    expect(providers.requests.map((request) => request.path)).toEqual([
      '/transaction/verify/someone-elses-ref',
    ]);
  });

  it('sends a URL parameter that only a header template places in that header, not in the query', async () => {
    const agentId: string = (await createAgent(t, { business_name: 'Shop' })).id;
    const api = await configureIntegration(t, agentId, 'custom_api', {
      name: 'Header API',
      base_url: `${shop.url}/v1`,
      auth_type: 'api_key',
      auth_config: { api_key: 'shop-secret-1', header_name: 'X-Shop-Key' },
    });
    await createTool(t, agentId, api.id, {
      name: 'Customer orders',
      http_method: 'GET',
      url_template: '/echo',
      url_params: [
        { name: 'customer', type: 'string', required: true },
        { name: 'status', type: 'string' },
      ],
      headers_template: { 'X-Customer': 'customer {customer}' },
    });
    shop.requiredHeader = ['x-shop-key', 'shop-secret-1'];
    llm.toolCall = { name: 'customer_orders', arguments: { customer: 'c-42', status: 'open' } };
    await sendAs(t, agentId, 'header-buyer', 'My open orders?');
    await repliesSettled(t);
    expect(shop.requests).toHaveLength(1);
    expect(shop.requests[0].url).toBe('/v1/echo?status=open');
    expect(shop.requests[0].headers['x-customer']).toBe('customer c-42');
  });
});
