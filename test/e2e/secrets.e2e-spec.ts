import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../factories/agents';
import { conversationsPath, issueTicket, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { bearer } from '../support/bearer';
import { randomApiKey } from '../support/keys';
import {
  CAPTURE_DIR_VARIABLE,
  recordErrorBody,
  recordHandedOn,
  recordProcessOutput,
  recordSecret,
  recordSpanExport,
} from '../support/log-capture';
import { scanCapture } from '../support/log-capture-scan';
import { openStream } from '../support/sse-client';
import { pollUntil } from '../support/wait';
import { configureIntegration } from '../factories/integrations';

interface LogLine {
  msg: string;
  req?: { path: string };
  res?: { status: number };
  err?: { stack?: string };
}

const STACK_FRAME = /\bat \S+ \(.+:\d+:\d+\)|\/(src|dist|node_modules)\//;

/** An MCP server that refuses every request, echoing the headers it was sent, as some do. */
async function startEchoingServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: 'unauthorized', received: req.headers }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('secrets in logs and error bodies', () => {
  let t: TestApp;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_TIMEOUT_MS: '2000' });
    agentId = (await createAgent(t)).id;
  });
  afterAll(() => t.close());

  const logs = () => t.logLines().map((line) => JSON.parse(line) as LogLine);

  /** Waits for the access line of a request: it is written as the response finishes. */
  async function accessLine(path: RegExp, status: number): Promise<LogLine> {
    const { value } = await pollUntil(
      async () =>
        logs().find((line) => path.test(line.req?.path ?? '') && line.res?.status === status),
      (line) => line !== undefined,
      5000,
    );
    expect(value).toBeDefined();
    return value!;
  }

  function expectNotLogged(secrets: string[]): void {
    const text = t.logLines().join('\n');
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
    }
  }

  it('keeps a refused key out of the 401 body and the logs', async () => {
    const unknown = randomApiKey();
    const malformed = 'not-a-key-but-a-password-1234';
    const refused = [
      await t.http().get(`${API}/workflows`).set(bearer(unknown)),
      await t.http().get(`${API}/workflows`).set('X-Api-Key', unknown),
      await t.http().get(`${API}/workflows`).set(bearer(malformed)),
      await t.http().get(`${API}/workflows`).set('Authorization', `Basic ${malformed}`),
    ];
    for (const res of refused) {
      expect(res.status).toBe(401);
      expect(res.text).not.toContain(unknown);
      expect(res.text).not.toContain(malformed);
    }
    await accessLine(/\/workflows$/, 401);
    expectNotLogged([unknown, malformed, t.key]);
  });

  it('logs a stream request by its path alone, without the ticket', async () => {
    const conversationId = (await sendAs(t, agentId, 'stream-user', 'hello')).conversation_id;
    const ticket = await issueTicket(t, agentId, conversationId);
    const streamUrl = `${t.url}${conversationsPath(agentId)}/${conversationId}/stream`;
    const stream = await openStream(`${streamUrl}?ticket=${ticket}`);
    expect(stream.status).toBe(200);
    await stream.waitFor((frames) => frames.length > 0);
    stream.close();
    await stream.closed;
    const reused = await openStream(`${streamUrl}?ticket=${ticket}`);
    expect(reused.status).toBe(404);
    expect(JSON.stringify(reused.body)).not.toContain(ticket);

    const line = await accessLine(/\/stream$/, 404);
    expect(line.req!.path).toBe(`${conversationsPath(agentId)}/${conversationId}/stream`);
    expect(JSON.stringify(line)).not.toContain('ticket=');
    expectNotLogged([ticket]);
  });

  it('never returns or logs the credentials of an integration', async () => {
    const secrets = {
      stripe: 'sk_live_stripe_secret_for_logs_1',
      stripeUpdated: 'sk_live_stripe_secret_for_logs_2',
      bearer: 'custom-api-bearer-token-2',
      password: 'tool-basic-password-3',
      header: 'mcp-custom-header-value-4',
    };
    const base = `${API}/agents/${agentId}/integrations`;
    const post = (path: string, body: Record<string, unknown>) =>
      t.api().post(`${base}${path}`).send(body);
    const responses = [
      await post('/bimpeai/configure', { type: 'stripe', secret_key: secrets.stripe }).expect(201),
      // Configuring a connector again updates it.
      await post('/bimpeai/configure', {
        type: 'stripe',
        secret_key: secrets.stripeUpdated,
      }).expect(201),
    ];
    const api = await post('/custom_api/configure', {
      name: 'Shop',
      base_url: 'https://shop.example.com',
      auth_type: 'bearer',
      auth_config: { token: secrets.bearer },
    }).expect(201);
    responses.push(
      api,
      await post(`/custom_api/${api.body.data.id}/tools`, {
        name: 'Orders',
        http_method: 'GET',
        url_template: '/orders',
        auth_type: 'basic',
        auth_config: { username: 'shop', password: secrets.password },
      }).expect(201),
      await post('/mcp_server/configure', {
        name: 'Tools',
        server_url: 'https://mcp.example.com/mcp',
        auth_type: 'custom',
        auth_config: { header_name: 'X-Tools-Key', token: secrets.header },
      }).expect(201),
      // A refused configuration must not echo what it was given either.
      await post('/custom_api/configure', {
        name: 'Broken',
        auth_type: 'custom',
        auth_config: {
          header_name: 'X-Tools-Key',
          token: 't',
          headers: { 'Bad Header': secrets.header },
        },
      }).expect(400),
    );
    for (const path of ['', '/bimpeai', '/custom_api', '/mcp_server']) {
      responses.push(await t.api().get(`${base}${path}`).expect(200));
    }
    responses.push(await t.api().get(`${API}/agents/${agentId}/actions`));
    for (const res of responses) {
      for (const secret of Object.values(secrets)) {
        expect(res.text).not.toContain(secret);
      }
    }
    await accessLine(/\/integrations\/mcp_server$/, 200);
    expectNotLogged(Object.values(secrets));
  });

  it('keeps the credentials out of what a failed call to an MCP server reports', async () => {
    const token = 'mcp-bearer-token-that-leaks-5';
    const headerValue = 'mcp-custom-header-that-leaks-6';
    const echoing = await startEchoingServer();
    try {
      const base = `${API}/agents/${agentId}/integrations/mcp_server`;
      const configured = await Promise.all([
        configureIntegration(t, agentId, 'mcp_server', {
          name: 'Echo bearer',
          server_url: echoing.url,
          auth_type: 'bearer',
          auth_config: { token },
        }),
        configureIntegration(t, agentId, 'mcp_server', {
          name: 'Echo custom',
          server_url: echoing.url,
          auth_type: 'custom',
          auth_config: { header_name: 'X-Secret', token: headerValue },
        }),
      ]);
      for (const server of configured) {
        const id = server.id as string;
        const tested = await t.api().post(`${base}/${id}/test`).expect(200);
        expect(tested.body.data).toMatchObject({ success: false, error: expect.any(String) });
        const discovered = await t.api().post(`${base}/${id}/discover`).expect(502);
        for (const res of [tested, discovered]) {
          expect(res.text).not.toContain(token);
          expect(res.text).not.toContain(headerValue);
        }
      }
      await accessLine(/\/discover$/, 502);
      expectNotLogged([token, headerValue]);
    } finally {
      await new Promise((resolve) => echoing.server.close(resolve));
    }
  });

  it('answers an internal failure with a plain 500 and logs its stack, without the key', async () => {
    const broken = await startTestApp();
    try {
      await broken.dataSource().query('ALTER TABLE workflows RENAME TO workflows_gone');
      const res = await broken.api().get(`${API}/workflows`).expect(500);
      expect(res.body).toEqual({
        message: 'Internal server error',
        error: 'Internal Server Error',
        code: 'internal_error',
        statusCode: 500,
        request_id: res.headers['x-request-id'],
      });
      expect(res.text).not.toMatch(STACK_FRAME);
      const { value: failure } = await pollUntil(
        async () =>
          broken
            .logLines()
            .map((line) => JSON.parse(line) as LogLine)
            .find((line) => line.msg === 'Unhandled error while serving a request'),
        (line) => line !== undefined,
        5000,
      );
      expect(failure?.err?.stack).toMatch(STACK_FRAME);
      expect(broken.logLines().join('\n')).not.toContain(broken.key);
    } finally {
      await broken.close();
    }
  });
});

describe("the run's secrets scan", () => {
  it('reports a recorded secret found in a log line or a span export, and a stack trace in an error body, without showing the secret', () => {
    const runDir = process.env[CAPTURE_DIR_VARIABLE];
    const dir = mkdtempSync(join(tmpdir(), 'console-scan-test-'));
    process.env[CAPTURE_DIR_VARIABLE] = dir;
    try {
      const key = randomApiKey();
      recordSecret('api key', key);
      recordProcessOutput(
        'server',
        `{"level":30,"time":1,"msg":"started"}\n{"level":40,"time":2,"msg":"retrying with ${key}"}\n`,
        '',
      );
      recordErrorBody({
        request: 'GET /api/v1/console/workflows',
        status: 500,
        body: JSON.stringify({ message: 'Error: boom\n    at Repo.find (/app/dist/main.js:10:5)' }),
      });
      recordSpanExport('{"resourceSpans":[]}');
      recordSpanExport(
        `{"resourceSpans":[{"attributes":[{"key":"url.query","value":{"stringValue":"ticket=${key}"}}]}]}`,
      );
      const result = scanCapture(dir);
      expect(result).toMatchObject({ logLines: 2, spanExports: 2, errorBodies: 1, secrets: 1 });
      expect(result.findings).toEqual([
        {
          where: expect.stringMatching(/server-\d+\.log:2$/),
          problem: expect.stringContaining('api key sk_tes'),
          excerpt: expect.stringContaining('retrying with [SECRET]'),
        },
        {
          where: expect.stringMatching(/^span export .*\.ndjson:2$/),
          problem: expect.stringContaining('api key sk_tes'),
          excerpt: expect.stringContaining('ticket=[SECRET]'),
        },
        {
          where: 'error body of GET /api/v1/console/workflows (500)',
          problem: 'shows a stack trace or a source path',
          excerpt: expect.any(String),
        },
      ]);
      expect(JSON.stringify(result)).not.toContain(key);
    } finally {
      process.env[CAPTURE_DIR_VARIABLE] = runDir;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an integration secret in a body handed on (a model request), and no other kind there', () => {
    const runDir = process.env[CAPTURE_DIR_VARIABLE];
    const dir = mkdtempSync(join(tmpdir(), 'console-scan-test-'));
    process.env[CAPTURE_DIR_VARIABLE] = dir;
    try {
      const token = 'echoed-mcp-token-31415';
      const ticket = 'a-stream-ticket-27182';
      recordSecret('integration secret', token);
      recordSecret('stream ticket', ticket);
      recordHandedOn('a model request', JSON.stringify({ content: `You sent Bearer ${token}` }));
      recordHandedOn('a webhook delivery', JSON.stringify({ note: ticket }));
      const result = scanCapture(dir);
      expect(result).toMatchObject({ handedOn: 2, secrets: 2 });
      expect(result.findings).toEqual([
        {
          where: 'a model request',
          problem: expect.stringContaining('integration secret echoed'),
          excerpt: expect.stringContaining('You sent Bearer [SECRET]'),
        },
      ]);
    } finally {
      process.env[CAPTURE_DIR_VARIABLE] = runDir;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
