import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { API, randomApiKey } from '../factories/test-app';
import { runServerExpectingFailure, startServer } from '../support/processes';

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

function dropTable(file: string, table: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.exec(`DROP TABLE ${table}`, (error) => db.close(() => (error ? reject(error) : resolve())));
  });
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

  it('creates a first key on an empty database, prints it once to stdout and never logs it', async () => {
    const env = { DATABASE_URL: `sqlite:${join(directory, 'db.sqlite')}`, LOG_LEVEL: 'info' };
    const server = await startServer(env);
    let key: string;
    try {
      const { stdout } = server.output();
      const match = /No API key existed[^\n]*\n[^\n]*\n\s*\n\s*(sk_[A-Za-z0-9_-]+)/.exec(stdout);
      expect(match).not.toBeNull();
      key = match![1];
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
    const { stdout } = server.output();
    const lines = logLines(stdout);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((line) => line.msg.includes(key))).toBe(false);
    expect(stdout.split(key).length - 1).toBe(1);
    expect(stdout).not.toContain('secret-ticket-value');
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

    const again = await startServer(env);
    expect(await again.stop()).toBe(0);
    expect(again.output().stdout).not.toMatch(/No API key existed/);
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
      await dropTable(file, 'workflows');
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

  it('requires CONSOLE_SECRET_KEY on PostgreSQL', async () => {
    const result = await runServerExpectingFailure({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
      LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/CONSOLE_SECRET_KEY/);
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
