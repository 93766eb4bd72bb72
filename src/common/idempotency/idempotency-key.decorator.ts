import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

const STORED =
  'Makes retries safe: a repeat with the same key, method, path and body within the window ' +
  'returns the first response (with Idempotent-Replayed: true) without running again.';
const NEVER_STORED =
  'Accepted, but the response is a credential of the caller that asked: it is never stored, ' +
  'and every request gets its own.';

/** Documents the Idempotency-Key header of a write route. */
export const ApiIdempotencyKey = (stored = true) =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: stored ? STORED : NEVER_STORED,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
  );
