import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  ApiEnvelope,
  ApiErrorResponse,
  ApiErrors,
  ErrorStatus,
} from '@/common/http/api-docs.decorators';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { Idempotency, IdempotencyMode } from '@/common/idempotency/idempotency-mode.decorator';
import { RequireScopes } from './require-scopes.decorator';
import { Scope } from './scopes';

interface RouteOptions {
  scope: Exclude<Scope, '*'>;
  summary: string;
  /** Error statuses besides 401/403/429, which every scoped route documents. */
  errors?: ErrorStatus[];
  /** How it runs under an Idempotency-Key, when not `atomic` (see `IdempotencyMode`). */
  idempotency?: Exclude<IdempotencyMode, 'atomic'>;
}

interface ServedEndpointOptions extends RouteOptions {
  /** The `message` of the success envelope. */
  message: string;
  /** The model of `data`; null for `data: null`. */
  response: Type<unknown> | null;
  /** `array`: data is a plain list; `paginated`: a page with `meta`. */
  shape?: 'object' | 'array' | 'paginated';
  /** The success status when it is not 200 (201 for creates). */
  status?: number;
}

/** A route of the contract that is not active yet: it answers 501 once authenticated and scoped. */
interface NotImplementedEndpointOptions extends RouteOptions {
  notImplemented: true;
}

export type EndpointOptions = ServedEndpointOptions | NotImplementedEndpointOptions;

/**
 * One decorator per route: its scope (enforced by the scope guard), its envelope message, and its
 * OpenAPI description, with Idempotency-Key and its replays where the route takes one.
 */
export const Endpoint = (options: EndpointOptions) => {
  const isWrite = options.scope.endsWith(':write');
  const neverStored = options.idempotency === 'never_stored';
  const takesKey = isWrite || neverStored;
  const served = !('notImplemented' in options);
  return applyDecorators(
    RequireScopes(options.scope),
    ApiOperation({ summary: options.summary }),
    ...(served ? success(options, takesKey && !neverStored) : [notImplemented()]),
    ApiErrors(...withQueryRefusal(options.errors ?? defaultErrors(served, isWrite))),
    ...(takesKey ? [ApiIdempotencyKey(!neverStored)] : []),
    ...(options.idempotency ? [Idempotency(options.idempotency)] : []),
  );
};

function success(options: ServedEndpointOptions, replayable: boolean) {
  return [
    ResponseMessage(options.message),
    ApiEnvelope(options.response, {
      status: options.status ?? 200,
      array: options.shape === 'array',
      paginated: options.shape === 'paginated',
      replayable,
    }),
    ...(options.status ? [HttpCode(options.status)] : []),
  ];
}

const notImplemented = () => ApiErrorResponse(501, 'not_implemented');

/** Any route may answer 400: an unknown query parameter is refused everywhere (docs/api.md §1). */
function withQueryRefusal(statuses: ErrorStatus[]): ErrorStatus[] {
  return statuses.includes(400) ? statuses : [400, ...statuses];
}

/** A route not active yet looks nothing up; as a write it still meets Idempotency-Key conflicts. */
function defaultErrors(served: boolean, isWrite: boolean): ErrorStatus[] {
  if (!served) {
    return isWrite ? [409, 422] : [];
  }
  return isWrite ? [400, 404, 409, 422] : [404];
}
