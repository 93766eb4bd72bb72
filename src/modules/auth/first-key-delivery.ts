import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatabaseUrl } from '@/config/database-url';

export const FIRST_KEY_FILE = 'first-api-key';

/**
 * Where a generated first key may be shown without reaching log storage: on stdout only when it
 * is a terminal (otherwise stdout is the log stream a collector keeps), else in a file of the
 * SQLite data directory that only this user can read. PostgreSQL has no data directory: there the
 * key is not generated at all (null), and CONSOLE_BOOTSTRAP_KEY or the admin CLI makes one.
 */
export type FirstKeyDelivery = { to: 'terminal' } | { to: 'file'; path: string } | null;

export function firstKeyDelivery(databaseUrl: string, stdoutIsTerminal: boolean): FirstKeyDelivery {
  if (stdoutIsTerminal) {
    return { to: 'terminal' };
  }
  const target = parseDatabaseUrl(databaseUrl);
  return target.kind === 'sqlite'
    ? { to: 'file', path: join(target.dataDirectory, FIRST_KEY_FILE) }
    : null;
}

/** Replaces any older file, so that the mode is always this one's: read and write by the owner. */
export function writeFirstKeyFile(path: string, key: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
}
