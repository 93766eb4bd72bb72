import { EntityNotFoundError, QueryFailedError } from 'typeorm';
import { toErrorResponse } from './error-response';

const foreignKeyViolation = (code: string, message: string) =>
  new QueryFailedError('INSERT', [], Object.assign(new Error(message), { code }));

describe('toErrorResponse', () => {
  it('answers a row deleted by a concurrent request with 404 not_found, not 500', () => {
    const gone = [
      foreignKeyViolation('23503', 'insert or update on table "agents" violates foreign key'),
      foreignKeyViolation('SQLITE_CONSTRAINT_FOREIGNKEY', 'FOREIGN KEY constraint failed'),
      new EntityNotFoundError('ConversationEntity', { id: 'x' }),
    ];
    for (const exception of gone) {
      expect(toErrorResponse(exception, 'req-1')).toEqual({
        status: 404,
        body: {
          message: 'A record this request refers to was deleted while it ran',
          error: 'Not Found',
          code: 'not_found',
          statusCode: 404,
          request_id: 'req-1',
        },
        unexpected: false,
      });
    }
  });

  it('still answers anything unexpected with 500 internal_error', () => {
    const response = toErrorResponse(new TypeError('boom'), 'req-2');
    expect(response.status).toBe(500);
    expect(response.body.code).toBe('internal_error');
    expect(response.unexpected).toBe(true);
  });
});
