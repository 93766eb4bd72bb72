import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { API, ApiClient } from '../support/api-client';
import { runToEnd, startApp } from '../support/app-process';
import { freePort } from '../support/free-port';
import { recordSecret } from '../support/log-capture';
import { runInTerminal } from '../support/terminal';
import { randomApiKey } from '../support/keys';
import { startLlmStub } from '../support/llm-stub';
import { openStream } from '../support/sse-client';
import { pollUntil, sleep } from '../support/wait';

/** The built server (dist/main.js, built by the global setup), as `npm start` runs it. */
const startServer = (env: Record<string, string>) => startApp(env);

/** Starts the server expecting it to refuse to start; resolves with what it printed. */
const runServerExpectingFailure = (env: Record<string, string>) =>
  runToEnd('dist/main.js', [], env);

interface LogLine {
  level: number;
  msg: string;
  request_id?: string;
  api_key_id?: string;
  duration_ms?: number;
  req?: { method: string; path: string };
  res?: { status: number };
  err?: { stack?: string };
}

function dropTable(file: string, table: string): void {
  const db = new Sqlite(file);
  try {
    db.exec(`DROP TABLE ${table}`);
  } finally {
    db.close();
  }
}

function logLines(stdout: string): LogLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

describe('the server process', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'console-process-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('creates a first key on an empty database into a file only its user reads, and never writes it to stdout or the logs', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    const keyFile = join(directory, 'first-api-key');
    const server = await startServer(env);
    let key: string;
    try {
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      key = readFileSync(keyFile, 'utf8').trim();
      expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      recordSecret('api key', key);
      const res = await fetch(`${server.url}${API}/workflows`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      await fetch(`${server.url}${API}/workflows?ticket=secret-ticket-value`, {
        headers: { 'X-Api-Key': key },
      });
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const { stdout, stderr } = server.output();
    const lines = logLines(stdout);
    expect(lines.length).toBeGreaterThan(0);
    expect(stdout).not.toContain(key);
    expect(stderr).not.toContain(key);
    expect(stdout).not.toContain('secret-ticket-value');
    const told = lines.filter((line) => /No API key existed/.test(line.msg));
    expect(told).toHaveLength(1);
    expect(told[0].msg).toContain(keyFile);
    const access = lines.find(
      (line) => line.req?.path === `${API}/workflows` && line.res?.status === 200,
    )!;
    expect(access).toMatchObject({
      request_id: expect.any(String),
      api_key_id: expect.any(String),
      duration_ms: expect.any(Number),
      req: { method: 'GET', path: `${API}/workflows` },
      res: { status: 200 },
    });
    expect(statSync(join(directory, 'secret.key')).mode & 0o777).toBe(0o600);

    rmSync(keyFile);
    const again = await startServer(env);
    expect(await again.stop()).toBe(0);
    expect(again.output().stdout).not.toMatch(/No API key existed/);
    expect(existsSync(keyFile)).toBe(false);
  });

  it('shows a first key on stdout once when stdout is a terminal, and never through the logger', async () => {
    const port = await freePort();
    const run = await runInTerminal(
      {
        DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      `http://127.0.0.1:${port}`,
    );
    const match =
      /No API key existed[^\n]*\n[^\n]*shown only this once[^\n]*\n\s*\n\s*(sk_[A-Za-z0-9_-]+)/.exec(
        run.output,
      );
    expect(match).not.toBeNull();
    const key = match![1];
    recordSecret('api key', key);
    expect(run.output.split(key)).toHaveLength(2);
    expect(
      logLines(run.output.replace(/\r/g, '')).some((line) => JSON.stringify(line).includes(key)),
    ).toBe(false);
    expect(existsSync(join(directory, 'first-api-key'))).toBe(false);
  });

  it('logs an unexpected failure with its request id and stack, and answers 500 without internals', async () => {
    const file = join(directory, 'db.sqlite');
    const key = randomApiKey();
    const server = await startServer({
      DATABASE_URL: `sqlite:${file}`,
      CONSOLE_BOOTSTRAP_KEY: key,
      LOG_LEVEL: 'info',
    });
    let requestId: string | null = null;
    try {
      dropTable(file, 'workflows');
      const res = await fetch(`${server.url}${API}/workflows`, { headers: { 'X-Api-Key': key } });
      expect(res.status).toBe(500);
      const body = (await res.json()) as Record<string, unknown>;
      requestId = res.headers.get('x-request-id');
      expect(body).toEqual({
        message: 'Internal server error',
        error: 'Internal Server Error',
        code: 'internal_error',
        statusCode: 500,
        request_id: requestId,
      });
    } finally {
      await server.stop();
    }
    const failure = logLines(server.output().stdout).find(
      (line) => line.level === 50 && line.msg === 'Unhandled error while serving a request',
    );
    expect(failure).toBeDefined();
    expect(failure!.request_id).toBe(requestId);
    expect(failure!.err?.stack).toMatch(/no such table/);
    expect(server.output().stdout).not.toContain(key);
  });

  it('refuses to start on a bad setting and names the variable', async () => {
    const result = await runServerExpectingFailure({
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      PORT: 'eighty',
      RATE_LIMIT_MAX: '-1',
      CONSOLE_BOOTSTRAP_KEY: 'not-a-key',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/PORT/);
    expect(result.stderr).toMatch(/RATE_LIMIT_MAX/);
    expect(result.stderr).toMatch(/CONSOLE_BOOTSTRAP_KEY/);
    expect(result.stderr).not.toMatch(/at \w+ \(/);
  });

  it('refuses to start on a malformed SMTP_URL with a line naming it, never showing it', async () => {
    for (const url of [
      'smtp://mail.example.com:99999',
      'smtp://user:hunter2%zz@mail.example.com',
    ]) {
      const result = await runServerExpectingFailure({
        DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
        SMTP_URL: url,
      });
      expect({ url, code: result.code }).toEqual({ url, code: 1 });
      const stderr = result.stderr.trim();
      // As every bad setting: a heading, then one line per problem, naming its variable.
      expect(stderr.split('\n')).toEqual([
        'Invalid configuration:',
        expect.stringMatching(/^ {2}SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/),
      ]);
      expect(stderr).not.toContain('mail.example.com');
      expect(stderr).not.toContain('hunter2');
    }
  });

  it('writes its log lines to LOG_FILE instead of stdout, and refuses to start when it cannot open it', async () => {
    const logFile = join(directory, 'logs', 'console.log');
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
      LOG_LEVEL: 'info',
      LOG_FILE: logFile,
    });
    expect(await server.stop()).toBe(0);
    expect(logLines(server.output().stdout)).toEqual([]);
    const lines = logLines(readFileSync(logFile, 'utf8'));
    expect(lines.some((line) => line.msg === 'Bootstrap key ensured for team "default"')).toBe(
      true,
    );

    writeFileSync(join(directory, 'not-a-directory'), '');
    const refused = await runServerExpectingFailure({
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      LOG_FILE: join(directory, 'not-a-directory', 'console.log'),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/LOG_FILE: cannot be opened/);
  });

  it('says in one line that its port is in use, before creating or printing any key, and exits non-zero', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const result = await runServerExpectingFailure({
        DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'info',
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `PORT: port ${port} is in use; stop what holds it or set another PORT`,
      );
      expect(result.stdout).not.toMatch(/No API key existed|sk_|successfully started/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('says in one line naming DATABASE_URL why the SQLite directory cannot be made', async () => {
    const file = join(directory, 'a-file');
    writeFileSync(file, '');
    const result = await runServerExpectingFailure({
      DATABASE_URL: `sqlite:${file}/x/console.sqlite`,
      LOG_LEVEL: 'info',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `DATABASE_URL: cannot create the directory ${file}/x of the SQLite file: ` +
        'a file is in the way of that path',
    );
  });

  it('requires CONSOLE_SECRET_KEY on PostgreSQL', async () => {
    const result = await runServerExpectingFailure({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
      LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/CONSOLE_SECRET_KEY/);
  });

  it('delivers a reply after a crash between the user message and its reply', async () => {
    const llm = await startLlmStub();
    const key = randomApiKey();
    const env = {
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      CONSOLE_BOOTSTRAP_KEY: key,
      LOG_LEVEL: 'silent',
      LLM_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '60000',
    };
    try {
      llm.behaviour = 'hang';
      const first = await startServer(env);
      const onFirst = new ApiClient(first.url, key);
      const agent = await onFirst.createAgent('W');
      const message = await onFirst.data(
        'POST',
        `/agents/${agent.id}/conversations/messages`,
        201,
        { message: 'Is anyone there?', channel_type: 'webchat', channel_user_id: 'crash-user' },
      );
      await pollUntil(
        async () => llm.requests.length,
        (n) => n > 0,
        10_000,
      );
      await first.stop('SIGKILL');

      llm.behaviour = 'answer';
      llm.answer = 'Yes, I am here.';
      const second = await startServer(env);
      try {
        const onSecond = new ApiClient(second.url, key);
        const messagesPath = `/agents/${agent.id}/conversations/${message.conversation_id}/messages`;
        const listMessages = async (): Promise<Array<{ role: string; message: string }>> =>
          onSecond.data('GET', messagesPath, 200);
        await pollUntil(listMessages, (list) => list.length >= 2, 15_000);
        await sleep(500);
        const final = await listMessages();
        expect(final.map((m) => [m.role, m.message])).toEqual([
          ['user', 'Is anyone there?'],
          ['assistant', 'Yes, I am here.'],
        ]);
      } finally {
        await second.stop();
      }
    } finally {
      await llm.close();
    }
  });

  it('closes open streams and exits promptly on SIGTERM', async () => {
    const key = randomApiKey();
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      CONSOLE_BOOTSTRAP_KEY: key,
      LOG_LEVEL: 'silent',
    });
    const client = new ApiClient(server.url, key);
    const agent = await client.createAgent('W');
    const message = await client.data('POST', `/agents/${agent.id}/conversations/messages`, 201, {
      message: 'hi',
      role: 'assistant',
      channel_type: 'webchat',
      channel_user_id: 'u',
    });
    const base = `/agents/${agent.id}/conversations/${message.conversation_id}`;
    const streams = [];
    for (let i = 0; i < 5; i++) {
      const { ticket } = await client.data('POST', `${base}/stream-ticket`, 201, {});
      const stream = await openStream(
        `${server.url}${API}${base}/messages/stream?ticket=${ticket}`,
      );
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    // Well under the 5 s keep-alive timeout that idle stream connections would otherwise wait out.
    expect(Date.now() - started).toBeLessThan(3000);
    await Promise.all(streams.map((stream) => stream.closed));
  });

  it('stops cleanly on SIGTERM', async () => {
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`,
      CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
      LOG_LEVEL: 'silent',
    });
    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
