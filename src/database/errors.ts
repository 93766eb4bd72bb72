import { EntityNotFoundError, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';

interface DriverError {
  code?: string;
  message?: string;
}

/** A constraint violation: PostgreSQL's SQLSTATE `sqlState`, or SQLite's naming `sqliteKind`. */
function isConstraintViolation(error: unknown, sqlState: string, sqliteKind: RegExp): boolean {
  if (!(error instanceof QueryFailedError)) {
    return false;
  }
  const driverError = error.driverError as DriverError;
  return (
    driverError.code === sqlState ||
    (String(driverError.code).startsWith('SQLITE_CONSTRAINT') &&
      sqliteKind.test(driverError.message ?? ''))
  );
}

/** A unique-constraint violation, as SQLite and PostgreSQL each report it. */
export function isUniqueViolation(error: unknown): boolean {
  return isConstraintViolation(error, '23505', /UNIQUE|PRIMARY KEY/);
}

/** PostgreSQL aborted the transaction to break a deadlock (SQLSTATE 40P01). */
export function isDeadlock(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as DriverError).code === '40P01';
}

/** A foreign-key violation: the row is still referenced (or references nothing). */
export function isForeignKeyViolation(error: unknown): boolean {
  return isConstraintViolation(error, '23503', /FOREIGN KEY/);
}

/**
 * A record the statement needed was deleted by a concurrent request after the service had found
 * it: a write referring to it broke its foreign key, or a row read back by `…OrFail` was gone.
 * A delete refused because the row is still referenced is not this (the service answers 409).
 */
export function isRecordGoneMeanwhile(error: unknown): boolean {
  if (error instanceof EntityNotFoundError) {
    return true;
  }
  return (
    isForeignKeyViolation(error) && !/^\s*DELETE\b/i.test((error as QueryFailedError).query ?? '')
  );
}

/** Socket errors: the database server cannot be reached, or dropped the connection. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/**
 * PostgreSQL SQLSTATEs of a server that is going or not there yet: class 08 (connection
 * exception), 57P01–57P03 (terminated by an administrator or a crash, cannot connect now).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/;
/** What `pg` says when a connection dies under it or cannot be had in time. */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * The database is unreachable (stopped, restarting, network down), as opposed to refusing the
 * statement: the request may succeed if retried shortly.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // TypeORM releases the query runner of a connection that fails (PostgreSQL terminated it), so
  // the next statement of a transaction open on it finds it released.
  if (error instanceof QueryRunnerAlreadyReleasedError) {
    return true;
  }
  const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  if (!(cause instanceof Error)) {
    return false;
  }
  const { code, message } = cause as DriverError;
  return (
    (typeof code === 'string' &&
      (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) ||
    CONNECTION_LOST.test(message ?? '')
  );
}
