import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors, ErrorStatus } from '@/common/http/api-docs.decorators';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { Idempotency, IdempotencyMode } from '@/common/idempotency/idempotency-mode.decorator';
import { RequireScopes } from './require-scopes.decorator';
import { Scope } from './scopes';

export interface EndpointOptions {
  scope: Exclude<Scope, '*'>;
  summary: string;
  /** The `message` of the success envelope. */
  message: string;
  /** The model of `data`; null for `data: null`. */
  response: Type<unknown> | null;
  /** `array`: data is a plain list; `paginated`: a page with `meta`. */
  shape?: 'object' | 'array' | 'paginated';
  /** The success status when it is not 200 (201 for creates). */
  status?: number;
  /** Error statuses besides 401/403/429, which every scoped route documents. */
  errors?: ErrorStatus[];
  /** How it runs under an Idempotency-Key, when not `atomic` (see `IdempotencyMode`). */
  idempotency?: Exclude<IdempotencyMode, 'atomic'>;
}

/**
 * One decorator per route: its scope (enforced by the scope guard), its envelope message, and its
 * OpenAPI description, with Idempotency-Key and its replays where the route takes one.
 */
export const Endpoint = (options: EndpointOptions) => {
  const isWrite = options.scope.endsWith(':write');
  const neverStored = options.idempotency === 'never_stored';
  const takesKey = isWrite || neverStored;
  return applyDecorators(
    RequireScopes(options.scope),
    ResponseMessage(options.message),
    ApiOperation({ summary: options.summary }),
    ApiEnvelope(options.response, {
      status: options.status ?? 200,
      array: options.shape === 'array',
      paginated: options.shape === 'paginated',
      replayable: takesKey && !neverStored,
    }),
    ApiErrors(...(options.errors ?? (isWrite ? [400, 404, 409, 422] : [404]))),
    ...(takesKey ? [ApiIdempotencyKey(!neverStored)] : []),
    ...(options.idempotency ? [Idempotency(options.idempotency)] : []),
    ...(options.status ? [HttpCode(options.status)] : []),
  );
};
