import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../factories/agents';
import { conversationsPath, issueTicket, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { runToEnd, startApp } from '../support/app-process';
import { freePort } from '../support/free-port';
import { recordSecret } from '../support/log-capture';
import { spanAttribute, startOtlpReceiver } from '../support/otlp-receiver';
import { ApiClient } from '../support/api-client';
import { randomApiKey } from '../support/keys';
import { startRedisServer } from '../support/redis-server';
import { startLlmStub, LlmStub } from '../support/llm-stub';
import { openStream, SseConnection } from '../support/sse-client';
import { pollUntil, sleep } from '../support/wait';

const runServerExpectingFailure = (env: Record<string, string>) =>
  runToEnd('dist/main.js', [], env);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** `name{labels} value` lines of a Prometheus text exposition, comments left out. */
function samples(text: string): Array<{ name: string; labels: string; value: number }> {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line)!;
      return { name: match[1], labels: match[2] ?? '', value: Number(match[3]) };
    });
}

function sample(text: string, name: string, labels = ''): number | undefined {
  return samples(text).find((s) => s.name === name && s.labels.includes(labels))?.value;
}

function jsonLines(lines: string[]): Array<Record<string, any>> {
  return lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
}

describe('operations: metrics', () => {
  let t: TestApp;
  let llm: LlmStub;
  let metricsUrl: string;
  let stream: SseConnection | undefined;

  beforeAll(async () => {
    llm = await startLlmStub();
    llm.behaviour = 'hang';
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    t = await startTestApp({
      METRICS_PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '20',
      LLM_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '60000',
    });
  });
  afterAll(async () => {
    stream?.close();
    await llm.close();
    await t.close();
  });

  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('serves Prometheus text on METRICS_PORT: requests by route and status, streams, replies waiting, refusals, process', async () => {
    const agent = await createAgent(t);
    await t.api().get(`${API}/agents/${agent.id}`).expect(200);
    await t.api().get(`${API}/agents/00000000-0000-4000-8000-000000000000`).expect(404);
    const message = await sendAs(t, agent.id, 'metrics-user', 'Is anyone there?');
    const ticket = await issueTicket(t, agent.id, message.conversation_id);
    stream = await openStream(
      `${t.url}${conversationsPath(agent.id)}/${message.conversation_id}/messages/stream?ticket=${ticket}`,
    );
    expect(stream.status).toBe(200);
    const other = await t.createKey('metrics-burst', ['*']);
    for (let i = 0; i < 22; i++) {
      await t.api(other.key).get(`${API}/workflows`);
    }
    await pollUntil(
      async () => llm.requests.length,
      (n) => n > 0,
      10_000,
    );

    const text = await scrape();
    const route = `${API}/agents/:agentId`;
    expect(
      sample(
        text,
        'console_http_request_duration_seconds_count',
        `method="GET",route="${route}",status="200"`,
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'console_http_request_duration_seconds_count',
        `method="GET",route="${route}",status="404"`,
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'console_http_request_duration_seconds_bucket',
        `le="+Inf",method="POST",route="${API}/agents",status="201"`,
      ),
    ).toBe(1);
    // Routes are patterns, never the ids of a path.
    expect(text).not.toContain(agent.id);
    expect(sample(text, 'console_open_streams')).toBe(1);
    expect(sample(text, 'console_reply_queue_depth')).toBe(1);
    expect(sample(text, 'console_reply_queue_lag_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'console_rate_limit_refusals_total')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'console_webhook_queue_depth')).toBe(0);
    expect(sample(text, 'console_webhook_queue_due')).toBe(0);
    expect(sample(text, 'console_knowledge_fetch_queue_depth')).toBe(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
    if (t.env.DATABASE_URL.startsWith('postgres')) {
      expect(sample(text, 'console_db_pool_max')).toBe(10);
      expect(sample(text, 'console_db_pool_connections')).toBeGreaterThan(0);
    }

    stream.close();
    await stream.closed;
    const { value } = await pollUntil(
      async () => sample(await scrape(), 'console_open_streams'),
      (open) => open === 0,
      5_000,
    );
    expect(value).toBe(0);
  });

  it('answers only /metrics there, and never on the API port', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    await t.http().get('/metrics').expect(404);
  });
});

describe('operations: where metrics listen', () => {
  /** 127.0.0.2 is loopback too, but only a server bound to every interface answers there. */
  const answers = (url: string) =>
    fetch(url).then(
      (res) => res.status,
      () => 'refused',
    );

  it('serves /metrics on 127.0.0.1 only by default, whatever HOST says', async () => {
    const port = await freePort();
    const t = await startTestApp({ METRICS_PORT: String(port), HOST: '0.0.0.0' });
    try {
      expect(await answers(`http://127.0.0.1:${port}/metrics`)).toBe(200);
      expect(await answers(`http://127.0.0.2:${port}/metrics`)).toBe('refused');
    } finally {
      await t.close();
    }
  });

  it('serves /metrics where METRICS_HOST says', async () => {
    const port = await freePort();
    const t = await startTestApp({ METRICS_PORT: String(port), METRICS_HOST: '0.0.0.0' });
    try {
      expect(await answers(`http://127.0.0.2:${port}/metrics`)).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('operations: headers and access lines', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('sends security headers (helmet) with the API and the docs page', async () => {
    for (const path of [`${API}/workflows`, `${API}/docs`, '/healthz']) {
      const res = await t.api().get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('puts the client address, user agent and the trace id of a traceparent on the access line', async () => {
    const res = await t
      .api()
      .get(`${API}/workflows`)
      .set('traceparent', TRACEPARENT)
      .set('User-Agent', 'ops-test/1.0')
      .expect(200);
    const requestId = res.headers['x-request-id'];
    const { value: line } = await pollUntil(
      async () => jsonLines(t.logLines()).find((l) => l.request_id === requestId && l.res),
      (found) => found !== undefined,
      2_000,
    );
    expect(line).toMatchObject({
      level: 30,
      client_ip: '127.0.0.1',
      user_agent: 'ops-test/1.0',
      trace_id: TRACE_ID,
      req: { method: 'GET', path: `${API}/workflows` },
      res: { status: 200 },
    });

    const malformed = await t.api().get(`${API}/workflows`).set('traceparent', 'nonsense');
    const plain = jsonLines(t.logLines()).find(
      (l) => l.request_id === malformed.headers['x-request-id'] && l.res,
    );
    expect(plain).toBeDefined();
    expect(plain!.trace_id).toBeUndefined();
  });

  it('logs health probes at debug while they succeed', async () => {
    const res = await t.http().get('/readyz').expect(200);
    const { value: line } = await pollUntil(
      async () =>
        jsonLines(t.logLines()).find((l) => l.request_id === res.headers['x-request-id'] && l.res),
      (found) => found !== undefined,
      2_000,
    );
    expect(line!.level).toBe(20);
  });
});

describe('operations: dependency trouble', () => {
  it('logs Redis connection trouble while it lasts, rate-limited, and when it ends', async () => {
    const redis = await startRedisServer();
    const t = await startTestApp({ REDIS_URL: redis.url });
    try {
      await redis.stop();
      await t.api().get(`${API}/workflows`).expect(503);
      const troubleLines = async () =>
        jsonLines(t.logLines()).filter((l) => /^Redis connection trouble/.test(l.msg));
      const { value: trouble } = await pollUntil(troubleLines, (lines) => lines.length >= 2, 5_000);
      expect(trouble[0]).toMatchObject({ level: 40, context: 'Redis', reason: 'ECONNREFUSED' });
      // ioredis retries every 100 ms to 1 s: well over a dozen failures in 3 s, one line each connection.
      await sleep(3_000);
      expect(await troubleLines()).toHaveLength(2);
      await redis.start();
      const { value: back } = await pollUntil(
        async () => jsonLines(t.logLines()).filter((l) => /^Redis reachable again/.test(l.msg)),
        (lines) => lines.length === 2,
        10_000,
      );
      expect(back).toHaveLength(2);
    } finally {
      await t.close();
      await redis.stop();
    }
  });
});

describe('operations: readable logs', () => {
  it('writes pino-pretty lines with LOG_FORMAT=pretty', async () => {
    const t = await startTestApp({ LOG_FORMAT: 'pretty' });
    try {
      const res = await t
        .api()
        .get(`${API}/workflows`)
        .set('User-Agent', 'pretty-test')
        .expect(200);
      const { value: line } = await pollUntil(
        async () => t.logLines().find((l) => l.includes(res.headers['x-request-id'])),
        (found) => found !== undefined,
        2_000,
      );
      expect(line).toMatch(
        new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: GET ${API}/workflows 200 `),
      );
      expect(line).toContain('"user_agent":"pretty-test"');
    } finally {
      await t.close();
    }
  });
});

describe('operations: the server process', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'console-operations-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('reads .env (the real environment wins), says where it listens in one line, and exports request spans to OTLP', async () => {
    const receiver = await startOtlpReceiver();
    const key = randomApiKey();
    writeFileSync(
      join(directory, '.env'),
      [
        '# read from the working directory',
        `OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.url}`,
        'OTEL_SERVICE_NAME=console-ops-test',
        'LOG_FORMAT=pretty',
        `CONSOLE_BOOTSTRAP_KEY=${key}`,
      ].join('\n'),
    );
    const database = join(directory, 'db.sqlite');
    const server = await startApp(
      {
        DATABASE_URL: `sqlite:${database}`,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      { cwd: directory },
    );
    let requestId: string | null = null;
    try {
      const res = await fetch(`${server.url}${API}/workflows`, {
        headers: { Authorization: `Bearer ${key}`, traceparent: TRACEPARENT },
      });
      expect(res.status).toBe(200);
      requestId = res.headers.get('x-request-id');
      const { value: span } = await pollUntil(
        async () => receiver.spans.find((s) => s.traceId === TRACE_ID && s.kind === 2),
        (found) => found !== undefined,
        10_000,
      );
      expect(span).toBeDefined();
      expect(span!.name).toMatch(/^GET/);
    } finally {
      expect(await server.stop()).toBe(0);
      await receiver.close();
    }
    const lines = jsonLines(server.output().stdout.split('\n'));
    const started = lines.filter((l) => /listening on/.test(l.msg));
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      level: 30,
      msg: expect.stringMatching(
        /^Console API listening on http:\/\/127\.0\.0\.1:\d+ \(embedded, sqlite /,
      ),
      shape: 'embedded',
      database: `sqlite ${database}`,
    });
    expect(
      lines.some((l) => ['RouterExplorer', 'RoutesResolver', 'InstanceLoader'].includes(l.context)),
    ).toBe(false);
    const access = lines.find((l) => l.request_id === requestId && l.res);
    expect(access).toMatchObject({ trace_id: TRACE_ID, client_ip: '127.0.0.1' });
  });

  it('exports spans that carry no query value: no stream ticket, no key', async () => {
    const receiver = await startOtlpReceiver();
    const key = randomApiKey();
    const server = await startApp(
      {
        DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
        CONSOLE_BOOTSTRAP_KEY: key,
        LOG_LEVEL: 'silent',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      { cwd: directory },
    );
    let ticket = '';
    try {
      const client = new ApiClient(server.url, key);
      const agent = await client.createAgent('W');
      const message = await client.data('POST', `/agents/${agent.id}/conversations/messages`, 201, {
        message: 'hi',
        role: 'assistant',
        channel_type: 'webchat',
        channel_user_id: 'u',
      });
      const base = `/agents/${agent.id}/conversations/${message.conversation_id}`;
      ticket = (await client.data('POST', `${base}/stream-ticket`, 201, {})).ticket;
      recordSecret('stream ticket', ticket);
      const stream = await openStream(
        `${server.url}${API}${base}/messages/stream?ticket=${ticket}`,
      );
      expect(stream.status).toBe(200);
      stream.close();
      await stream.closed;
      await client.data('GET', `/workflows?search=${key}&limit=5`, 200);
      // The server span of the GET of that path.
      const spanOf = (path: RegExp) => () =>
        Promise.resolve(
          receiver.spans.find(
            (span) =>
              span.kind === 2 &&
              spanAttribute(span, 'http.request.method') === 'GET' &&
              path.test(String(spanAttribute(span, 'url.path'))),
          ),
        );
      const found = async (path: RegExp) =>
        (await pollUntil(spanOf(path), (span) => span !== undefined, 10_000)).value!;
      expect(spanAttribute(await found(/\/messages\/stream$/), 'url.query')).toBe(
        'ticket=REDACTED',
      );
      expect(spanAttribute(await found(/\/workflows$/), 'url.query')).toBe(
        'search=REDACTED&limit=REDACTED',
      );
    } finally {
      expect(await server.stop()).toBe(0);
      await receiver.close();
    }
    const exported = receiver.exports.join('\n');
    expect(exported.length).toBeGreaterThan(0);
    expect(exported).not.toContain(ticket);
    expect(exported).not.toContain(key);
  });

  it('says in one line why it could not start', async () => {
    const result = await runServerExpectingFailure({
      DATABASE_URL: 'postgres://nobody:hunter2@127.0.0.1:1/none',
      CONSOLE_SECRET_KEY: 'a'.repeat(64),
      LOG_LEVEL: 'info',
    });
    expect(result.code).toBe(1);
    const stderr = result.stderr.trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toBe(
      'DATABASE_URL: cannot reach the database (postgres 127.0.0.1:1/none): ECONNREFUSED',
    );
    expect(stderr).not.toContain('hunter2');
  });
});

describe('operations: migration commands', () => {
  it('run, revert and show the migrations of DATABASE_URL, naming it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'console-migrations-'));
    const file = join(directory, 'db.sqlite');
    const migrations = (command: string) =>
      runToEnd('dist/database/migrations-cli.js', [command], { DATABASE_URL: `sqlite:${file}` });
    try {
      const run = await migrations('run');
      expect(run).toMatchObject({ code: 0, stderr: `Database: sqlite ${file}\n` });
      const applied = run.stdout.trim().split('\n');
      expect(applied.length).toBeGreaterThanOrEqual(4);
      expect(applied.every((line) => /^applied \w+\d{13}$/.test(line))).toBe(true);

      const revert = await migrations('revert');
      expect(revert.code).toBe(0);
      const last = applied[applied.length - 1].replace('applied ', '');
      expect(revert.stdout).toBe(`reverted ${last}\n`);

      const show = await migrations('show');
      expect(show.code).toBe(0);
      expect(show.stdout.trim().split('\n')).toEqual([
        ...applied.slice(0, -1).map((line) => line.replace('applied ', '[X] ')),
        `[ ] ${last}`,
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
