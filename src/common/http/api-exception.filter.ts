import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { reportDatabaseTrouble } from '@/database/database-trouble';
import { ApiError } from './api-error';
import { toErrorResponse } from './error-response';
import { requestIdOf } from './request-id';

/** The single place that turns anything thrown into the contract's Error body. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const requestId = requestIdOf(req);
    const { status, body, unexpected } = toErrorResponse(exception, requestId);
    if (unexpected) {
      this.logger.error(
        { err: exception, request_id: requestId, method: req.method, path: req.path },
        'Unhandled error while serving a request',
      );
    } else if (status === 503) {
      reportDatabaseTrouble(exception);
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (exception instanceof ApiError && exception.errorOptions.retryAfterS !== undefined) {
      res.setHeader('Retry-After', String(exception.errorOptions.retryAfterS));
    }
    res.status(status).json(body);
  }
}
