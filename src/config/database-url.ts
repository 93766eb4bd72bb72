import { dirname, resolve } from 'node:path';

export type DatabaseTarget =
  { kind: 'sqlite'; path: string; dataDirectory: string } | { kind: 'postgres'; url: string };

export function parseDatabaseUrl(databaseUrl: string): DatabaseTarget {
  if (databaseUrl.startsWith('sqlite:')) {
    const location = databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (location === ':memory:') {
      return { kind: 'sqlite', path: ':memory:', dataDirectory: resolve('./data') };
    }
    const path = resolve(location);
    return { kind: 'sqlite', path, dataDirectory: dirname(path) };
  }
  return { kind: 'postgres', url: databaseUrl };
}
