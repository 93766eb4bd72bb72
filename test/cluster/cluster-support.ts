import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Redis from 'ioredis';
import { API, randomApiKey } from '../factories/test-app';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { recordProcessOutput, recordSecretSettings } from '../support/log-capture';
import { freePort } from '../support/processes';
import { pollUntil } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
export const POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** What two instances share: a throwaway PostgreSQL database, a Redis key prefix, the keys. */
export interface ClusterEnv {
  database: TestDatabase;
  env: Record<string, string>;
  key: string;
  cleanup(): Promise<void>;
}

export async function clusterEnv(overrides: Record<string, string> = {}): Promise<ClusterEnv> {
  process.env.TEST_POSTGRES_URL = POSTGRES_URL;
  const database = await createTestDatabase();
  const prefix = `cluster-test-${randomBytes(4).toString('hex')}:`;
  const key = randomApiKey();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
    CONSOLE_BOOTSTRAP_KEY: key,
    // Every line is kept, so that the run can check that none of them holds a secret.
    LOG_LEVEL: 'debug',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...overrides,
  };
  return {
    database,
    env,
    key,
    async cleanup() {
      await deleteKeys(env.REDIS_URL, prefix);
      await database.drop();
    },
  };
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    } while (cursor !== '0');
  } catch {
    // The Redis of a fault test may be gone already.
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts the built application (dist/main.js) as its own process and waits for /readyz; what it
 * printed joins the run's secrets scan when it exits.
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<Instance> {
  recordSecretSettings(env);
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  child.once('close', () =>
    recordProcessOutput(`instance-${name.replace(/\W+/g, '-')}`, stdout, stderr),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const { value: ready } = await pollUntil(
    () =>
      fetch(`${url}/readyz`).then(
        (res) => res.ok,
        () => child.exitCode !== null && 'exited',
      ),
    (state) => state !== false,
    timeoutMs,
  );
  if (ready !== true) {
    child.kill('SIGKILL');
    throw new Error(`instance ${name} did not become ready:\n${output}`);
  }
  return {
    name,
    url,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
      }
      await exited;
    },
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A redis-server of the test's own on a free port, to stop and start at will. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const server: RedisServer = {
    url,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      await pollUntil(
        async () => {
          const probe = new Redis(url, {
            lazyConnect: true,
            maxRetriesPerRequest: 0,
            retryStrategy: () => null,
          });
          probe.on('error', () => undefined);
          try {
            await probe.connect();
            return (await probe.ping()) === 'PONG';
          } catch {
            return false;
          } finally {
            probe.disconnect();
          }
        },
        Boolean,
        10_000,
      );
    },
    async stop() {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
  await server.start();
  return server;
}

export function api(instance: Instance, key: string) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const res = await fetch(`${instance.url}${API}${path}`, {
      method,
      headers: { ...headers, ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Record<string, any>) : {},
    };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown = {}, extra?: Record<string, string>) =>
      call('POST', path, body, extra),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}
