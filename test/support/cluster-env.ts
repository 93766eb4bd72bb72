import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { randomApiKey } from './keys';

export const POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** What the instances of a cluster share: a throwaway PostgreSQL database, a Redis key prefix, the keys. */
export interface ClusterEnv {
  database: TestDatabase;
  env: Record<string, string>;
  key: string;
  cleanup(): Promise<void>;
}

export async function clusterEnv(overrides: Record<string, string> = {}): Promise<ClusterEnv> {
  const database = await createTestDatabase(POSTGRES_URL);
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
      await deleteRedisKeys(env.REDIS_URL, prefix);
      await database.drop();
    },
  };
}

/** Deletes every key under `prefix`; a Redis that is gone already (a fault test's) is no error. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
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
