import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { ApiClient } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { POSTGRES_URL } from '../support/cluster-env';
import { randomApiKey } from '../support/keys';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { McpTestServer, startMcpTestServer } from '../support/mcp-test-server';
import { pollUntil } from '../support/wait';

describe.each([
  ['SQLite', ''],
  ['PostgreSQL', POSTGRES_URL],
])('a SIGKILL while an action runs, on %s', (_label, postgresUrl) => {
  let llm: LlmStub;
  let mcp: McpTestServer;
  let database: TestDatabase;
  let server: AppProcess | undefined;
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
    database = await createTestDatabase(postgresUrl);
  });
  afterAll(async () => {
    release();
    await server?.stop();
    await database?.drop();
    await mcp?.close();
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
});
