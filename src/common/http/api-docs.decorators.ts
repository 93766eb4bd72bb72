import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiResponse,
  ApiUnprocessableEntityResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type {
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PaginationMetaDto } from '../pagination/pagination-meta.dto';
import { ErrorBodyDto } from './error-body.dto';

export interface EnvelopeOptions {
  status?: number;
  description?: string;
  /** `data` is an array of the model. */
  array?: boolean;
  /** Paginated: `data` is an array and `meta` follows. */
  paginated?: boolean;
}

/** Documents a success envelope `{ message, data[, meta] }` around `model` (null: `data: null`). */
export function ApiEnvelope(model: Type<unknown> | null, options: EnvelopeOptions = {}) {
  const data = model
    ? options.array || options.paginated
      ? { type: 'array', items: { $ref: getSchemaPath(model) } }
      : { $ref: getSchemaPath(model) }
    : { type: 'null', nullable: true };
  const properties: Record<string, SchemaObject | ReferenceObject> = {
    message: { type: 'string' },
    data,
  };
  const required = ['message', 'data'];
  if (options.paginated) {
    properties.meta = { $ref: getSchemaPath(PaginationMetaDto) };
    required.push('meta');
  }
  return applyDecorators(
    ApiExtraModels(...(model ? [model] : []), PaginationMetaDto),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: { type: 'object', properties, required },
    }),
  );
}

export type ErrorStatus = 400 | 403 | 404 | 409 | 422 | 502;

const ERROR_DOCS: Record<ErrorStatus, () => MethodDecorator & ClassDecorator> = {
  400: () =>
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: 'validation_error, or bad_request (malformed JSON, bad Idempotency-Key)',
    }),
  403: () =>
    ApiForbiddenResponse({ type: ErrorBodyDto, description: 'insufficient_scope or forbidden' }),
  404: () => ApiNotFoundResponse({ type: ErrorBodyDto, description: 'not_found' }),
  409: () => ApiConflictResponse({ type: ErrorBodyDto, description: 'conflict' }),
  422: () =>
    ApiUnprocessableEntityResponse({
      type: ErrorBodyDto,
      description: 'conflict: Idempotency-Key reused with a different request',
    }),
  502: () =>
    ApiBadGatewayResponse({
      type: ErrorBodyDto,
      description: 'internal_error: a server this request depends on failed or did not answer',
    }),
};

/** Documents the error bodies a route can answer besides the auth and rate-limit ones. */
export function ApiErrors(...statuses: ErrorStatus[]) {
  return applyDecorators(...statuses.map((status) => ERROR_DOCS[status]()));
}

/**
 * Headers over Node's size limit are refused before routing (see client-error.ts), on any path:
 * every route documents it.
 */
export const ApiHeadersTooLarge = () =>
  ApiResponse({
    status: 431,
    type: ErrorBodyDto,
    description: 'bad_request: headers over the size limit (refused before any key is read)',
  });
