import { StartupError } from '@/config/startup-error';
import { describeDatabase } from '@/config/deployment';
import { isDatabaseUnavailable } from './errors';

/** PostgreSQL's answers to a connection it refuses, by SQLSTATE. */
const REFUSALS: Record<string, string> = {
  '28P01': 'PostgreSQL refused the user name or password',
  '28000': 'PostgreSQL refused the connection (pg_hba.conf)',
  '3D000': 'the database does not exist',
};

/** Why the database stopped the start, told in one line naming DATABASE_URL; else the error as it is. */
export function databaseStartupProblem(error: unknown, databaseUrl: string): unknown {
  const where = describeDatabase(databaseUrl);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && REFUSALS[code]) {
    return new StartupError(`DATABASE_URL: ${REFUSALS[code]} (${where})`);
  }
  if (isDatabaseUnavailable(error)) {
    const reason = typeof code === 'string' ? code : (error as Error).message;
    return new StartupError(`DATABASE_URL: cannot reach the database (${where}): ${reason}`);
  }
  return error;
}
