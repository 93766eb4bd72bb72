import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StartupError } from './startup-error';

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

const MKDIR_PROBLEMS: Record<string, string> = {
  EEXIST: 'a file is in the way of that path',
  ENOTDIR: 'a file is in the way of that path',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
};

/** Creates the directory of a SQLite file, or says in one line why DATABASE_URL cannot be used. */
export function ensureDataDirectory(target: DatabaseTarget): void {
  if (target.kind !== 'sqlite' || target.path === ':memory:') {
    return;
  }
  try {
    mkdirSync(target.dataDirectory, { recursive: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new StartupError(
      `DATABASE_URL: cannot create the directory ${target.dataDirectory} of the SQLite file: ` +
        (MKDIR_PROBLEMS[code ?? ''] ?? message),
    );
  }
}
