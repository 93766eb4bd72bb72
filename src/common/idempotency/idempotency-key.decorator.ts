import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/** Documents the Idempotency-Key header of a write route. */
export const ApiIdempotencyKey = () =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes retries safe: a repeat with the same key, method, path and body within the window ' +
        'returns the first response (with Idempotent-Replayed: true) without running again.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
  );
