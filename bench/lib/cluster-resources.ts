import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';

export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = 'redis://127.0.0.1:6379';

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A PostgreSQL database of the run's own, created through the `test` database. */
export async function createDatabase(): Promise<ThrowawayDatabase> {
  const name = `console_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function redisPrefix(): string {
  return `bench-${randomBytes(4).toString('hex')}:`;
}

export async function deleteRedisKeys(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) {
        deleted += await redis.del(...keys);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
