import type { NextFunction, Request, Response } from 'express';
import { traceIdOf } from './trace-id';

/**
 * Read while the request's span is active (later, e.g. when the access line is written, it may no
 * longer be), so that logs can name the trace.
 */
export function traceContextMiddleware(req: Request, _res: Response, next: NextFunction): void {
  req.traceId = traceIdOf(req);
  next();
}
