import { HttpException } from '@nestjs/common';

export const ERROR_CODES = [
  'validation_error',
  'bad_request',
  'unauthorized',
  'api_key_missing',
  'api_key_invalid',
  'api_key_expired',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'conflict',
  'too_many_requests',
  'not_implemented',
  'agent_limit_reached',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorOptions {
  /** The concurrent-stream 429 is the one error body without `request_id` (docs/api.md §1). */
  omitRequestId?: boolean;
  /** Sent as `Retry-After`: when asking again may succeed. */
  retryAfterS?: number;
}

/** An error with its place in the contract: HTTP status, error code and a message for people. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string | string[],
    readonly errorOptions: ApiErrorOptions = {},
  ) {
    super({ code, message }, status);
  }

  get messages(): string | string[] {
    return (this.getResponse() as { message: string | string[] }).message;
  }
}

/** Raised by the validation pipe: the request was refused before its handler ran. */
export class ValidationFailedError extends ApiError {
  constructor(messages: string[]) {
    super(400, 'validation_error', messages);
  }
}

export const Errors = {
  validation: (messages: string[]) => new ValidationFailedError(messages),
  badRequest: (message: string, status = 400) => new ApiError(status, 'bad_request', message),
  unauthorized: (message: string) => new ApiError(401, 'unauthorized', message),
  apiKeyMissing: () =>
    new ApiError(
      401,
      'api_key_missing',
      'An API key is required: send Authorization: Bearer <key> or X-Api-Key',
    ),
  apiKeyInvalid: () =>
    new ApiError(401, 'api_key_invalid', 'The API key is invalid or has been revoked'),
  apiKeyExpired: () => new ApiError(401, 'api_key_expired', 'The API key has expired'),
  insufficientScope: (scope: string) =>
    new ApiError(403, 'insufficient_scope', `This API key lacks the required scope: ${scope}`),
  forbidden: (message: string) => new ApiError(403, 'forbidden', message),
  notFound: (message = 'Resource not found') => new ApiError(404, 'not_found', message),
  conflict: (message: string, status = 409) => new ApiError(status, 'conflict', message),
  tooManyRequests: (message = 'Too many requests', options: ApiErrorOptions = {}) =>
    new ApiError(429, 'too_many_requests', message, options),
  notImplemented: (message: string) => new ApiError(501, 'not_implemented', message),
  agentLimitReached: (message: string) => new ApiError(403, 'agent_limit_reached', message),
  /** A server the request depends on (an MCP server, a provider) failed or did not answer. */
  upstream: (message: string) => new ApiError(502, 'internal_error', message),
  unavailable: (message: string) => new ApiError(503, 'internal_error', message),
  /** This instance has more work than it can do soon: the caller asks again later. */
  overloaded: (message: string, retryAfterS: number) =>
    new ApiError(503, 'internal_error', message, { retryAfterS }),
};
