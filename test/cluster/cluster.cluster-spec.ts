import { startLlmStub } from '../support/llm-stub';
import { startMcpTestServer } from '../support/mcp-test-server';
import { API, ApiClient } from '../support/api-client';
import { AppProcess, runToEnd, startApp } from '../support/app-process';
import { clusterEnv, ClusterEnv } from '../support/cluster-env';
import { freePort } from '../support/free-port';
import { createKeyWithCli, revokeKeyWithCli } from '../support/keys';
import { startRedisServer } from '../support/redis-server';
import { openStream, SseConnection } from '../support/sse-client';
import { pollUntil, sleep } from '../support/wait';

/** Far longer than a stream should take to end; the tests wait for the ending, not a delay. */
const ENDING_DEADLINE_MS = 10_000;

const api = (instance: AppProcess, key: string) => new ApiClient(instance.url, key);

async function seedConversation(
  instance: AppProcess,
  key: string,
): Promise<{ agentId: string; conversationId: string }> {
  const client = api(instance, key);
  const agent = await client.createAgent('W');
  const first = await client.post(`/agents/${agent.id}/conversations/messages`, {
    message: 'opening',
    role: 'assistant',
    channel_type: 'webchat',
    channel_user_id: `user-${Math.random()}`,
  });
  return { agentId: agent.id, conversationId: first.body.data.conversation_id };
}

async function ticketFrom(
  instance: AppProcess,
  key: string,
  agentId: string,
  conversationId: string,
): Promise<string> {
  const res = await api(instance, key).post(
    `/agents/${agentId}/conversations/${conversationId}/stream-ticket`,
  );
  expect(res.status).toBe(201);
  return res.body.data.ticket;
}

function streamUrl(
  instance: AppProcess,
  agentId: string,
  conversationId: string,
  query: string,
): string {
  return `${instance.url}${API}/agents/${agentId}/conversations/${conversationId}/messages/stream?${query}`;
}

describe('two instances on one PostgreSQL and one Redis', () => {
  let cluster: ClusterEnv;
  let a: AppProcess;
  let b: AppProcess;

  beforeAll(async () => {
    cluster = await clusterEnv({
      STREAM_MAX_PER_SUBJECT: '4',
      STREAM_SLOT_LEASE_MS: '1500',
      RATE_LIMIT_MAX: '100000',
    });
    [a, b] = await Promise.all([
      startApp(cluster.env, { name: 'A' }),
      startApp(cluster.env, { name: 'B' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cluster.cleanup();
  });

  it('delivers to a stream on B what is posted on A, gapless across the replay', async () => {
    const { agentId, conversationId } = await seedConversation(a, cluster.key);
    const onA = api(a, cluster.key);
    const path = `/agents/${agentId}/conversations/${conversationId}/messages`;
    for (let i = 0; i < 30; i++) {
      await onA.post(path, { message: `before ${i}`, role: 'assistant' });
    }
    const first = (await onA.get(`${path}?limit=1`)).body.data[0];
    const writer = (async () => {
      for (let i = 0; i < 30; i++) {
        await onA.post(path, { message: `during ${i}`, role: 'assistant' });
      }
    })();
    const ticket = await ticketFrom(b, cluster.key, agentId, conversationId);
    const stream = await openStream(
      streamUrl(b, agentId, conversationId, `ticket=${ticket}&after=${first.id}`),
    );
    expect(stream.status).toBe(200);
    await writer;
    const stored = (await onA.get(`${path}?limit=100`)).body.data.map((m: { id: string }) => m.id);
    await stream.waitFor(
      (frames) => frames.filter((f) => f.event === 'message').length >= stored.length - 1,
      15_000,
    );
    await sleep(300);
    expect(stream.messages().map((m) => m.id)).toEqual(stored.slice(1));
    stream.close();
  });

  it('opens a ticket issued on A exactly once across A and B', async () => {
    const { agentId, conversationId } = await seedConversation(a, cluster.key);
    const ticket = await ticketFrom(a, cluster.key, agentId, conversationId);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        openStream(streamUrl(i % 2 ? a : b, agentId, conversationId, `ticket=${ticket}`)),
      ),
    );
    const statuses = attempts.map((attempt) => attempt.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(19);
    attempts.forEach((attempt) => attempt.close());
  });

  it('keeps one stream-slot budget across instances, and gives back the slots of a killed one', async () => {
    const c = await startApp(cluster.env, { name: 'C' });
    const { agentId, conversationId } = await seedConversation(a, cluster.key);
    const open = async (instance: AppProcess) =>
      openStream(
        streamUrl(
          instance,
          agentId,
          conversationId,
          `ticket=${await ticketFrom(a, cluster.key, agentId, conversationId)}`,
        ),
      );
    const held: SseConnection[] = [];
    for (const instance of [c, c, b, b]) {
      const stream = await open(instance);
      expect(stream.status).toBe(200);
      held.push(stream);
    }
    const refused = await open(a);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_requests' });
    expect(refused.body).not.toHaveProperty('request_id');

    await c.stop('SIGKILL');
    const { value: reopened, elapsedMs } = await pollUntil(
      () => open(a),
      (stream) => stream.status === 200,
      10_000,
      250,
    );
    expect(reopened.status).toBe(200);
    expect(elapsedMs).toBeLessThan(5_000);
    [reopened, ...held].forEach((stream) => stream.close());
  });

  it('creates one record from 20 concurrent same-key POSTs spread over both', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(i % 2 ? a : b, cluster.key).post(
          '/workflows',
          { name: 'Once across the cluster' },
          { 'Idempotency-Key': 'cluster-key-1' },
        ),
      ),
    );
    expect(responses.every((res) => res.status === 201 || res.status === 409)).toBe(true);
    const list = await api(a, cluster.key).get('/workflows?search=Once%20across&limit=100');
    expect(list.body.meta.total_count).toBe(1);
  });

  it('refuses on B within 1 s a key revoked through the CLI', async () => {
    const { id, key } = await createKeyWithCli(cluster.env, 'default', 'workflows:read');
    expect((await api(b, key).get('/workflows')).status).toBe(200);
    expect((await api(a, key).get('/workflows')).status).toBe(200);
    await revokeKeyWithCli(cluster.env, id);
    const { value: status, elapsedMs } = await pollUntil(
      async () => (await api(b, key).get('/workflows')).status,
      (s) => s === 401,
      3_000,
      50,
    );
    expect(status).toBe(401);
    expect(elapsedMs).toBeLessThan(1_000);
    expect((await api(a, key).get('/workflows')).status).toBe(401);
  });

  it('ends on B a stream whose key was revoked through the CLI; nothing posted after reaches it', async () => {
    const { agentId, conversationId } = await seedConversation(a, cluster.key);
    const { id, key } = await createKeyWithCli(cluster.env, 'default', 'conversations:read');
    const ticket = await ticketFrom(b, key, agentId, conversationId);
    const stream = await openStream(streamUrl(b, agentId, conversationId, `ticket=${ticket}`));
    expect(stream.status).toBe(200);
    await stream.waitFor((frames) => frames.length >= 1);

    await revokeKeyWithCli(cluster.env, id);
    expect(await stream.closesWithin(ENDING_DEADLINE_MS)).toBe(true);
    const after = await api(a, cluster.key).post(
      `/agents/${agentId}/conversations/${conversationId}/messages`,
      { message: 'after the revocation', role: 'assistant' },
    );
    expect(after.status).toBe(201);
    expect(stream.messages().map((m) => m.id)).not.toContain(after.body.data.id);
  });

  it('ends on B the streams of an agent deleted on A', async () => {
    const { agentId, conversationId } = await seedConversation(a, cluster.key);
    const ticket = await ticketFrom(a, cluster.key, agentId, conversationId);
    const stream = await openStream(streamUrl(b, agentId, conversationId, `ticket=${ticket}`));
    expect(stream.status).toBe(200);
    await stream.waitFor((frames) => frames.length >= 1);

    expect((await api(a, cluster.key).delete(`/agents/${agentId}`)).status).toBe(200);
    expect(await stream.closesWithin(ENDING_DEADLINE_MS)).toBe(true);
  });
});

describe('one rate-limit budget across instances', () => {
  let cluster: ClusterEnv;
  let a: AppProcess;
  let b: AppProcess;

  beforeAll(async () => {
    cluster = await clusterEnv({ RATE_LIMIT_MAX: '6' });
    [a, b] = await Promise.all([
      startApp(cluster.env, { name: 'A' }),
      startApp(cluster.env, { name: 'B' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cluster.cleanup();
  });

  it('counts requests to A and B against the same budget', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api(i % 2 ? a : b, cluster.key).get('/workflows');
      expect(res.status).toBe(200);
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    const limitedA = await api(a, cluster.key).get('/workflows');
    const limitedB = await api(b, cluster.key).get('/workflows');
    expect([limitedA.status, limitedB.status]).toEqual([429, 429]);
    expect(Number(limitedB.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('pending replies across instances', () => {
  it('are produced by another instance when the one that took them dies', async () => {
    const llm = await startLlmStub();
    const cluster = await clusterEnv({ LLM_BASE_URL: llm.url, LLM_TIMEOUT_MS: '500' });
    let a: AppProcess | undefined;
    let b: AppProcess | undefined;
    try {
      llm.behaviour = 'hang';
      [a, b] = await Promise.all([
        startApp(cluster.env, { name: 'A' }),
        startApp(cluster.env, { name: 'B' }),
      ]);
      const client = api(a, cluster.key);
      const workflow = (await client.post('/workflows', { name: 'W' })).body.data;
      const agent = (
        await client.post('/agents', { workflow_id: workflow.id, name: 'A', description: 'd' })
      ).body.data;
      const sent = await client.post(`/agents/${agent.id}/conversations/messages`, {
        message: 'Are you there?',
        channel_type: 'webchat',
        channel_user_id: 'pending-user',
      });
      expect(sent.status).toBe(201);
      await pollUntil(
        async () => llm.requests.length,
        (n) => n > 0,
        5_000,
        20,
      );
      await a.stop('SIGKILL');
      llm.behaviour = 'answer';
      llm.answer = 'Answered by B.';
      const path = `/agents/${agent.id}/conversations/${sent.body.data.conversation_id}/messages`;
      const listMessages = async () =>
        (await api(b!, cluster.key).get(path)).body.data as Array<{
          role: string;
          message: string;
        }>;
      await pollUntil(listMessages, (messages) => messages.length >= 2, 20_000, 200);
      await sleep(1000);
      const final = await listMessages();
      expect(final.map((m) => [m.role, m.message])).toEqual([
        ['user', 'Are you there?'],
        ['assistant', 'Answered by B.'],
      ]);
    } finally {
      await Promise.all([a?.stop(), b?.stop()]);
      await cluster.cleanup();
      await llm.close();
    }
  });
});

describe('Redis faults', () => {
  it('refuses to start when Redis is unreachable', async () => {
    const cluster = await clusterEnv({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const { code, stderr } = await runToEnd('dist/main.js', [], {
        ...cluster.env,
        PORT: String(await freePort()),
      });
      expect(code).toBe(1);
      expect(stderr).toMatch(/Cannot reach Redis at REDIS_URL/);
    } finally {
      await cluster.cleanup();
    }
  });

  it('answers 503 while Redis is down, and recovers by itself when it returns', async () => {
    const redis = await startRedisServer();
    const cluster = await clusterEnv({ REDIS_URL: redis.url });
    let instance: AppProcess | undefined;
    try {
      instance = await startApp(cluster.env, { name: 'A' });
      const client = api(instance, cluster.key);
      expect((await client.get('/workflows')).status).toBe(200);
      const { agentId, conversationId } = await seedConversation(instance, cluster.key);
      const ticket = await ticketFrom(instance, cluster.key, agentId, conversationId);
      const stream = await openStream(
        streamUrl(instance, agentId, conversationId, `ticket=${ticket}`),
      );
      expect(stream.status).toBe(200);

      await redis.stop();
      const { value: ready } = await pollUntil(
        () => fetch(`${instance!.url}/readyz`),
        (res) => res.status === 503,
        5_000,
        100,
      );
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ code: 'internal_error', statusCode: 503 });
      const refused = await client.get('/workflows');
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'internal_error',
        statusCode: 503,
        request_id: expect.any(String),
      });
      expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);

      await redis.start();
      const { value: back, elapsedMs } = await pollUntil(
        () => client.get('/workflows'),
        (res) => res.status === 200,
        10_000,
        100,
      );
      expect(back.status).toBe(200);
      expect(elapsedMs).toBeLessThan(5_000);
      expect((await fetch(`${instance.url}/readyz`)).status).toBe(200);

      // The stream opened before the outage hears messages again: the subscription came back.
      const after = await client.post(
        `/agents/${agentId}/conversations/${conversationId}/messages`,
        {
          message: 'after the outage',
          role: 'assistant',
        },
      );
      await stream.waitFor(
        (frames) => frames.some((frame) => frame.id === after.body.data.id),
        5_000,
      );
      stream.close();
    } finally {
      await instance?.stop();
      await redis.stop();
      await cluster.cleanup();
    }
  });
});

describe('action approvals across instances', () => {
  it('resumes on B the reply A parked for approval, after A died', async () => {
    const llm = await startLlmStub();
    const mcp = await startMcpTestServer([
      {
        name: 'refund_order',
        description: 'Refund an order',
        inputSchema: { type: 'object', properties: { order_id: { type: 'string' } } },
        call: (args) => `Refund of ${String(args.order_id)} issued`,
      },
    ]);
    const cluster = await clusterEnv({ LLM_BASE_URL: llm.url, LLM_TIMEOUT_MS: '2000' });
    let a: AppProcess | undefined;
    let b: AppProcess | undefined;
    try {
      llm.toolCall = { name: 'refund_order', arguments: { order_id: 'R9' } };
      [a, b] = await Promise.all([
        startApp(cluster.env, { name: 'A' }),
        startApp(cluster.env, { name: 'B' }),
      ]);
      const onA = api(a, cluster.key);
      const agent = await onA.createAgent('Refunds');
      const server = await onA.data(
        'POST',
        `/agents/${agent.id}/integrations/mcp_server/configure`,
        201,
        {
          name: 'Shop',
          server_url: `${mcp.url}/mcp`,
        },
      );
      await onA.data(
        'POST',
        `/agents/${agent.id}/integrations/mcp_server/${server.id}/discover`,
        200,
      );
      const [action] = await onA.data('GET', `/agents/${agent.id}/actions`, 200);
      // Approval is required of this tool (the dashboard's switch; the API has none for MCP tools yet).
      const { Client } = await import('pg');
      const db = new Client({ connectionString: cluster.database.url });
      await db.connect();
      await db.query('UPDATE actions SET require_human_approval = true WHERE id = $1', [action.id]);
      await db.end();

      const sent = await onA.data('POST', `/agents/${agent.id}/conversations/messages`, 201, {
        message: 'Refund R9 please',
        channel_type: 'webchat',
        channel_user_id: 'cluster-buyer',
      });
      const { value: parked } = await pollUntil(
        () => onA.data('GET', `/agents/${agent.id}/action-runs?status=pending_approval`, 200),
        (runs: any[]) => runs.length === 1,
        10_000,
        100,
      );
      const messagesPath = `/agents/${agent.id}/conversations/${sent.conversation_id}/messages`;
      await pollUntil(
        () => onA.data('GET', messagesPath, 200),
        (messages: any[]) => messages.length === 3,
        10_000,
        100,
      );
      onA.close();
      await a.stop('SIGKILL');

      const onB = api(b, cluster.key);
      const approved = await onB.data(
        'POST',
        `/agents/${agent.id}/action-runs/${parked[0].id}/approve`,
        200,
      );
      expect(approved).toMatchObject({ status: 'succeeded', result: 'Refund of R9 issued' });
      const { value: messages } = await pollUntil(
        () => onB.data('GET', messagesPath, 200),
        (list: any[]) => list.length >= 5,
        10_000,
        100,
      );
      expect(messages.slice(3).map((m: any) => [m.message_type, m.action?.status ?? null])).toEqual(
        [
          ['action', 'succeeded'],
          ['text', null],
        ],
      );
      expect(messages[4].message).toContain('Refund of R9 issued');
      expect(mcp.calls).toEqual([{ name: 'refund_order', arguments: { order_id: 'R9' } }]);
      onB.close();
    } finally {
      await Promise.all([a?.stop(), b?.stop()]);
      await cluster.cleanup();
      await mcp.close();
      await llm.close();
    }
  });
});
