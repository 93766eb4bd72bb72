import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type {
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PaginationMetaDto } from '../pagination/pagination-meta.dto';
import { ErrorBodyDto } from './error-body.dto';
import { DocumentedErrorStatus, errorExample } from './error-examples';
import { ResponseHeaderOptions, responseHeaders } from './response-headers.docs';

export interface EnvelopeOptions {
  status?: number;
  description?: string;
  /** `data` is an array of the model. */
  array?: boolean;
  /** Paginated: `data` is an array and `meta` follows. */
  paginated?: boolean;
  /** The route takes Idempotency-Key: a replay answers with this response. */
  replayable?: boolean;
}

/** Documents a success envelope `{ message, data[, meta] }` around `model` (null: `data: null`). */
export function ApiEnvelope(model: Type<unknown> | null, options: EnvelopeOptions = {}) {
  const data = model
    ? options.array || options.paginated
      ? { type: 'array', items: { $ref: getSchemaPath(model) } }
      : { $ref: getSchemaPath(model) }
    : { type: 'object', nullable: true, enum: [null], description: 'Always null' };
  const properties: Record<string, SchemaObject | ReferenceObject> = {
    message: { type: 'string' },
    data,
  };
  const required = ['message', 'data'];
  if (options.paginated) {
    properties.meta = { $ref: getSchemaPath(PaginationMetaDto) };
    required.push('meta');
  }
  const status = options.status ?? 200;
  return applyDecorators(
    ApiExtraModels(...(model ? [model] : []), PaginationMetaDto),
    ApiResponse({
      status,
      description: options.description ?? 'Success',
      schema: { type: 'object', properties, required },
      headers: responseHeaders(status, { replayable: options.replayable }),
    }),
  );
}

/**
 * Documents an error answer: the contract's body, the one example of its status, and the headers
 * it carries. A status documented twice keeps the last example, and both descriptions.
 */
export const ApiErrorResponse = (
  status: DocumentedErrorStatus,
  description: string,
  headers: ResponseHeaderOptions = {},
) =>
  ApiResponse({
    status,
    description,
    type: ErrorBodyDto,
    example: errorExample(status),
    headers: responseHeaders(status, headers),
  });

/** The answer to a customer message while this instance's replies are backed up (docs/api.md §5). */
export const BACKLOG_REFUSAL =
  'internal_error: too many replies are waiting on this instance (REPLY_BACKLOG_MAX); ' +
  'send again after Retry-After seconds';

export type ErrorStatus = 400 | 403 | 404 | 409 | 422 | 502;

const ERROR_DOCS: Record<ErrorStatus, string> = {
  400: 'validation_error, or bad_request (malformed JSON, bad Idempotency-Key)',
  403: 'insufficient_scope or forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'conflict: Idempotency-Key reused with a different request',
  502: 'internal_error: a server this request depends on failed or did not answer',
};

/** Documents the error bodies a route can answer besides the auth and rate-limit ones. */
export function ApiErrors(...statuses: ErrorStatus[]) {
  return applyDecorators(...statuses.map((status) => ApiErrorResponse(status, ERROR_DOCS[status])));
}

/**
 * Headers over Node's size limit are refused before routing (see client-error.ts), on any path:
 * every route documents it. No rate limit was counted, so no X-RateLimit-* headers either.
 */
export const ApiHeadersTooLarge = () =>
  ApiErrorResponse(
    431,
    'bad_request: headers over the size limit (refused before any key is read)',
    { rateLimited: false },
  );
