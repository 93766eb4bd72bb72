import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/free-port';

const run = promisify(execFile);

export interface PostgresServer {
  /** postgres://…/postgres on the server's own port. */
  url: string;
  start(): Promise<void>;
  /** Stops the server the way an operator would (`pg_ctl stop -m fast`). */
  stop(): Promise<void>;
  /** Stops it and deletes its data directory. */
  destroy(): Promise<void>;
}

function binDirectory(): string {
  if (process.env.PG_BIN) {
    return process.env.PG_BIN;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error('No PostgreSQL binaries under /usr/lib/postgresql; set PG_BIN');
  }
  return join(root, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: run its tools as the postgres user then. */
function asPostgres(command: string, args: string[]): Promise<unknown> {
  return process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', command, ...args])
    : run(command, args);
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port, to stop and
 * start at will without touching the shared one.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = binDirectory();
  const directory = mkdtempSync(join(tmpdir(), 'console-pg-'));
  const data = join(directory, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) {
    await run('chown', ['postgres:postgres', directory]);
  }
  await asPostgres(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const pgCtl = (...args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const server: PostgresServer = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await pgCtl(
        '-w',
        '-t',
        '30',
        '-l',
        join(directory, 'server.log'),
        '-o',
        `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`,
        'start',
      );
    },
    async stop() {
      await pgCtl('-w', '-m', 'fast', 'stop');
    },
    async destroy() {
      await pgCtl('-w', '-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(directory, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
