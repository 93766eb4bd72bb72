import { AppConfig } from './app-config';
import { parseDatabaseUrl } from './database-url';

/** Which database a process uses, for operators: the SQLite path, or PostgreSQL's host and database (never the user or password). */
export function describeDatabase(databaseUrl: string): string {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === 'sqlite') {
    return `sqlite ${target.path}`;
  }
  try {
    const url = new URL(target.url);
    return `postgres ${url.host}${url.pathname}`;
  } catch {
    return 'postgres (unparseable URL)';
  }
}

/** embedded: one process, shared state in its memory; cluster: shared state in Redis. */
export function shapeOf(config: AppConfig): 'embedded' | 'cluster' {
  return config.redis.url ? 'cluster' : 'embedded';
}
