import { QueryFailedError } from 'typeorm';

interface DriverError {
  code?: string;
  message?: string;
}

/** A unique-constraint violation, as SQLite and PostgreSQL each report it. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) {
    return false;
  }
  const driverError = error.driverError as DriverError;
  return (
    driverError.code === '23505' ||
    (String(driverError.code).startsWith('SQLITE_CONSTRAINT') &&
      /UNIQUE|PRIMARY KEY/.test(driverError.message ?? ''))
  );
}

/** A foreign-key violation: the row is still referenced (or references nothing). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) {
    return false;
  }
  const driverError = error.driverError as DriverError;
  return (
    driverError.code === '23503' ||
    (String(driverError.code).startsWith('SQLITE_CONSTRAINT') && /FOREIGN KEY/.test(driverError.message ?? ''))
  );
}
