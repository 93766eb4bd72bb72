import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { isDatabaseUnavailable, isRecordGoneMeanwhile } from '@/database/errors';
import { ApiError, ErrorCode } from './api-error';

export interface ErrorBody {
  message: string | string[];
  error: string;
  code: ErrorCode;
  statusCode: number;
  request_id?: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  /** True when the failure is ours, not the client's: it is logged with its stack. */
  unexpected: boolean;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  409: 'conflict',
  413: 'bad_request',
  415: 'bad_request',
  422: 'conflict',
  429: 'too_many_requests',
  501: 'not_implemented',
};

const GENERIC_MESSAGES: Partial<Record<ErrorCode, string>> = {
  not_found: 'Resource not found',
  too_many_requests: 'Too many requests',
  internal_error: 'Internal server error',
};

const DATABASE_UNAVAILABLE = 'The database is unreachable; try again shortly';
const RECORD_GONE = 'A record this request refers to was deleted while it ran';

function describe(exception: unknown): {
  status: number;
  code: ErrorCode;
  message: string | string[];
} {
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), code: exception.code, message: exception.messages };
  }
  if (isDatabaseUnavailable(exception)) {
    return { status: 503, code: 'internal_error', message: DATABASE_UNAVAILABLE };
  }
  if (isRecordGoneMeanwhile(exception)) {
    return { status: 404, code: 'not_found', message: RECORD_GONE };
  }
  if (exception instanceof ThrottlerException) {
    return { status: 429, code: 'too_many_requests', message: GENERIC_MESSAGES.too_many_requests! };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = CODE_BY_STATUS[status] ?? (status < 500 ? 'bad_request' : 'internal_error');
    const message = status < 500 ? exception.message : (GENERIC_MESSAGES.internal_error as string);
    return { status: status === 405 ? 404 : status, code, message };
  }
  return { status: 500, code: 'internal_error', message: GENERIC_MESSAGES.internal_error! };
}

/** The contract's Error body for anything thrown while serving a request. */
export function toErrorResponse(exception: unknown, requestId: string): ErrorResponse {
  const { status, code, message } = describe(exception);
  const body: ErrorBody = {
    message,
    error: STATUS_CODES[status] ?? 'Error',
    code,
    statusCode: status,
    request_id: requestId,
  };
  if (exception instanceof ApiError && exception.errorOptions.omitRequestId) {
    delete body.request_id;
  }
  // An unreachable database is an outage (the access log and /readyz show it), not a bug to trace.
  const unexpected =
    status >= 500 && !(exception instanceof ApiError) && !isDatabaseUnavailable(exception);
  return { status, body, unexpected };
}
