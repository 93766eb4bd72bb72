import { EntityNotFoundError, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable, isRecordGoneMeanwhile, isUniqueViolation } from './errors';

const driverError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const queryFailed = (error: Error) => new QueryFailedError('SELECT 1', [], error);

describe('database errors', () => {
  it('tell an unreachable database from a refused statement', () => {
    expect(isDatabaseUnavailable(driverError('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(queryFailed(driverError('57P01', 'terminating connection')))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(queryFailed(driverError('08006')))).toBe(true);
    expect(isDatabaseUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);

    expect(isDatabaseUnavailable(queryFailed(driverError('23505')))).toBe(false);
    expect(isDatabaseUnavailable(queryFailed(driverError('SQLITE_ERROR')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    // An outbound call's failure carries its socket error as `cause`, not as its own code.
    expect(
      isDatabaseUnavailable(new TypeError('fetch failed', { cause: driverError('ECONNREFUSED') })),
    ).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });

  it('still recognise a unique violation', () => {
    expect(isUniqueViolation(queryFailed(driverError('23505')))).toBe(true);
  });

  it('tell a write to a record deleted meanwhile from a delete refused for its references', () => {
    const foreignKey = (query: string, error: Error) => new QueryFailedError(query, [], error);
    const sqlite = driverError('SQLITE_CONSTRAINT_FOREIGNKEY', 'FOREIGN KEY constraint failed');
    expect(isRecordGoneMeanwhile(foreignKey('INSERT INTO "agents" …', driverError('23503')))).toBe(
      true,
    );
    expect(isRecordGoneMeanwhile(foreignKey('UPDATE "agents" SET …', sqlite))).toBe(true);
    expect(isRecordGoneMeanwhile(new EntityNotFoundError('ConversationEntity', {}))).toBe(true);

    expect(isRecordGoneMeanwhile(foreignKey('DELETE FROM "workflows" …', sqlite))).toBe(false);
    expect(isRecordGoneMeanwhile(foreignKey(' delete from x', driverError('23503')))).toBe(false);
    expect(isRecordGoneMeanwhile(foreignKey('INSERT INTO x', driverError('23505')))).toBe(false);
  });
});
