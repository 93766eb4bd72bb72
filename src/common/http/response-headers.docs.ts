import type {
  HeaderObject,
  HeadersObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { REPLAYED_HEADER } from '../idempotency/idempotency.interceptor';
import { REQUEST_ID_HEADER } from './request-id';

/** The response headers, described once (app.setup.ts files them under components.headers). */
export const RESPONSE_HEADERS: Record<string, HeaderObject> = {
  [REQUEST_ID_HEADER]: {
    description:
      "The request's own X-Request-Id when it is 1 to 128 visible ASCII characters, otherwise a " +
      'new UUID; equals `request_id` in error bodies',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window, per API key (per client IP without a valid key)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time, in seconds, at which the current window ends',
    schema: { type: 'integer' },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1 },
  },
  [REPLAYED_HEADER]: {
    description:
      'Sent (as `true`) when this is the stored response to an earlier request with the same ' +
      'Idempotency-Key: nothing ran again',
    schema: { type: 'string', enum: ['true'] },
  },
};

const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

export interface ResponseHeaderOptions {
  /** False where the rate limiter never runs: health probes, requests refused by the HTTP parser. */
  rateLimited?: boolean;
  /** A success of a route that takes Idempotency-Key, which a replay answers. */
  replayable?: boolean;
}

/** The headers a response with this status carries. */
export function responseHeaders(
  status: number,
  { rateLimited = true, replayable = false }: ResponseHeaderOptions = {},
): HeadersObject {
  const names = [
    REQUEST_ID_HEADER,
    ...(rateLimited ? RATE_LIMIT : []),
    ...(status === 429 ? ['Retry-After'] : []),
    ...(replayable ? [REPLAYED_HEADER] : []),
  ];
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}
