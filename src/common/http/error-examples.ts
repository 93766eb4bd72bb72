import { ApiError, Errors } from './api-error';
import { ErrorBody, toErrorResponse } from './error-response';

/** Every error status the document describes, with the one example it shows for it. */
const EXAMPLES = {
  400: () => Errors.validation(['name: must not be empty']),
  401: () => Errors.apiKeyMissing(),
  403: () => Errors.insufficientScope('workflows:write'),
  404: () => Errors.notFound(),
  409: () => Errors.conflict('A request with this Idempotency-Key is still in progress'),
  413: () => Errors.badRequest('Request body is larger than the size limit', 413),
  415: () => Errors.badRequest('Unsupported body charset', 415),
  422: () =>
    Errors.conflict(
      'This Idempotency-Key was used with a different request (method, path or body)',
      422,
    ),
  429: () => Errors.tooManyRequests('Rate limit of 600 requests per 60 s exceeded'),
  431: () => Errors.badRequest('Request headers are larger than the size limit', 431),
  501: () => Errors.notImplemented('Call history is not active yet'),
  502: () =>
    Errors.upstream('MCP server "Catalogue" could not list its tools: it did not answer in time'),
  503: () => Errors.unavailable('Not ready: database unreachable'),
} satisfies Record<number, () => ApiError>;

export type DocumentedErrorStatus = keyof typeof EXAMPLES;

const EXAMPLE_REQUEST_ID = '5f0c6b1e-3d2a-4c8e-9b7f-1a2b3c4d5e6f';

/** The body an error with this status has, as the exception filter writes it. */
export function errorExample(status: DocumentedErrorStatus): ErrorBody {
  return toErrorResponse(EXAMPLES[status](), EXAMPLE_REQUEST_ID).body;
}
