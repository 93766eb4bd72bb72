import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { ApiClient } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { POSTGRES_URL } from '../support/cluster-env';
import { randomApiKey } from '../support/keys';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { McpTestServer, startMcpTestServer } from '../support/mcp-test-server';
import { pollUntil, sleep } from '../support/wait';

/** A shop's refund endpoint that never answers: the kill comes while a call waits on it. */
async function startHangingShop(): Promise<{
  url: string;
  calls: string[];
  close(): Promise<void>;
}> {
  const calls: string[] = [];
  const server: Server = createServer((req) => {
    calls.push(`${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each([
  ['SQLite', ''],
  ['PostgreSQL', POSTGRES_URL],
])('a SIGKILL while an action runs, on %s', (label, postgresUrl) => {
  let llm: LlmStub;
  let mcp: McpTestServer;
  let database: TestDatabase;
  let server: AppProcess | undefined;
  let shop: Awaited<ReturnType<typeof startHangingShop>>;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    llm = await startLlmStub();
    mcp = await startMcpTestServer([
      {
        name: 'refund_order',
        description: 'Refund an order',
        inputSchema: { type: 'object', properties: { order_id: { type: 'string' } } },
        // Never answers while the first process lives: the kill comes during the call.
        call: () =>
          new Promise<string>((resolve) => {
            release = () => resolve('refunded');
          }),
      },
    ]);
    shop = await startHangingShop();
    database = await createTestDatabase(postgresUrl);
  });
  afterAll(async () => {
    release();
    await server?.stop();
    await database?.drop();
    await mcp?.close();
    await shop?.close();
    await llm?.close();
  });

  it('marks the run failed "interrupted" after the restart and never calls the action again', async () => {
    const key = randomApiKey();
    const env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      LLM_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '1000',
      LLM_MAX_TOOL_STEPS: '1',
      OUTBOUND_TIMEOUT_MS: '3000',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    };
    llm.toolCall = { name: 'refund_order', arguments: { order_id: 'K1' } };
    server = await startApp(env, { name: 'before the kill' });
    let client = new ApiClient(server.url, key);
    const agent = await client.createAgent('Refunds');
    const mcpServer = await client.data(
      'POST',
      `/agents/${agent.id}/integrations/mcp_server/configure`,
      201,
      { name: 'Shop', server_url: `${mcp.url}/mcp` },
    );
    await client.data(
      'POST',
      `/agents/${agent.id}/integrations/mcp_server/${mcpServer.id}/discover`,
      200,
    );
    const sent = await client.data('POST', `/agents/${agent.id}/conversations/messages`, 201, {
      message: 'Refund K1 please',
      channel_type: 'webchat',
      channel_user_id: 'crash-buyer',
    });
    await pollUntil(
      async () => mcp.calls.length,
      (n) => n === 1,
      10_000,
      5,
    );
    const [running] = await client.data('GET', `/agents/${agent.id}/action-runs`, 200);
    expect(running).toMatchObject({ status: 'running', arguments: { order_id: 'K1' } });
    await server.stop('SIGKILL');
    client.close();

    server = await startApp(env, { name: 'after the restart' });
    client = new ApiClient(server.url, key);
    const { value: runs } = await pollUntil(
      () => client.data('GET', `/agents/${agent.id}/action-runs`, 200) as Promise<any[]>,
      (list) => list[0]?.status !== 'running',
      30_000,
      200,
    );
    expect(runs).toEqual([
      expect.objectContaining({ id: running.id, status: 'failed', error: 'interrupted' }),
    ]);
    // The reply the kill cut off is produced by the new process, without calling the action again.
    const { value: messages } = await pollUntil(
      () =>
        client.data(
          'GET',
          `/agents/${agent.id}/conversations/${sent.conversation_id}/messages`,
          200,
        ) as Promise<any[]>,
      (list) => list.length >= 3,
      30_000,
      200,
    );
    expect(messages.slice(1)).toEqual([
      expect.objectContaining({
        message_type: 'action',
        action: { run_id: running.id, action_name: 'refund_order', status: 'failed' },
      }),
      expect.objectContaining({
        message_type: 'text',
        message: expect.stringContaining('interrupted'),
      }),
    ]);
    expect(mcp.calls).toHaveLength(1);
    expect(server.loggedErrors()).toEqual([]);
    client.close();
  });

  it('finishes an approval cut off by the kill: the run is settled "interrupted" and the customer hears of it once', async () => {
    await server?.stop();
    const key = randomApiKey();
    const env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      LLM_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '1000',
      LLM_MAX_TOOL_STEPS: '1',
      OUTBOUND_TIMEOUT_MS: '3000',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    };
    llm.toolCall = { name: 'refund_order', arguments: { order_id: 'K2' } };
    server = await startApp(env, { name: 'before the approval kill' });
    let client = new ApiClient(server.url, key);
    const agent = await client.createAgent('Approvals');
    const api = await client.data(
      'POST',
      `/agents/${agent.id}/integrations/custom_api/configure`,
      201,
      { name: 'Shop', base_url: shop.url },
    );
    await client.data('POST', `/agents/${agent.id}/integrations/custom_api/${api.id}/tools`, 201, {
      name: 'Refund order',
      http_method: 'POST',
      url_template: '/refunds',
      body_params: [{ name: 'order_id', type: 'string', required: true }],
      require_human_approval: true,
      timeout: 60,
    });
    const sent = await client.data('POST', `/agents/${agent.id}/conversations/messages`, 201, {
      message: 'Refund K2 please',
      channel_type: 'webchat',
      channel_user_id: 'approval-crash-buyer',
    });
    const messagesPath = `/agents/${agent.id}/conversations/${sent.conversation_id}/messages`;
    const { value: parked } = await pollUntil(
      () => client.data('GET', `/agents/${agent.id}/action-runs`, 200) as Promise<any[]>,
      (list) => list[0]?.status === 'pending_approval',
      10_000,
      50,
    );
    const [run] = parked;
    // The approval runs the refund, which hangs; the process dies during the call.
    const approving = new ApiClient(server.url, key).call(
      'POST',
      `/agents/${agent.id}/action-runs/${run.id}/approve`,
    );
    await pollUntil(
      async () => shop.calls.length,
      (n) => n === 1,
      10_000,
      5,
    );
    const [claimed] = await client.data('GET', `/agents/${agent.id}/action-runs`, 200);
    expect(claimed).toMatchObject({ id: run.id, status: 'running' });
    await server.stop('SIGKILL');
    expect(await approving).toMatchObject({ kind: 'no-response' });
    client.close();

    server = await startApp(env, { name: 'after the approval kill' });
    client = new ApiClient(server.url, key);
    const started = Date.now();
    const { value: settled } = await pollUntil(
      () => client.data('GET', `/agents/${agent.id}/action-runs/${run.id}`, 200),
      (current) => current.status !== 'running',
      40_000,
      200,
    );
    expect(settled).toMatchObject({ status: 'failed', error: 'interrupted' });
    const { value: messages } = await pollUntil(
      () => client.data('GET', messagesPath, 200) as Promise<any[]>,
      (list) => list.length >= 5,
      20_000,
      200,
    );
    const followUpMs = Date.now() - started;
    expect(messages.slice(1).map((m) => [m.message_type, m.action?.status ?? null])).toEqual([
      ['action', 'pending_approval'],
      ['text', null],
      ['action', 'failed'],
      ['text', null],
    ]);
    expect(messages[3].message).toBe('Action refund_order failed: interrupted');
    expect(messages[4].message).toContain('interrupted');
    // Exactly once: nothing more comes, and the refund was never called again.
    await sleep(3_000);
    expect(await client.data('GET', messagesPath, 200)).toHaveLength(5);
    expect(shop.calls).toEqual(['POST /refunds']);
    process.stdout.write(
      `[reliability] approval crash (${label}): follow_up_ms_after_restart=${followUpMs}\n`,
    );
    expect(server.loggedErrors()).toEqual([]);
    client.close();
  }, 90_000);
});
