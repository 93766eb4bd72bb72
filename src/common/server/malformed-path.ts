import type { NextFunction, Request, Response } from 'express';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path segment whose percent-encoding is malformed (`%`, `%ZZ`, `%C0%AF`) would make the router
 * fail before any guard runs, so the answer would skip authentication and the rate-limit headers.
 * Such a segment is taken literally instead (its `%` escaped): the request then goes through the
 * usual pipeline and ends as an unknown id or route, 404.
 */
export function malformedPathMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const queryAt = req.url.indexOf('?');
  const path = queryAt < 0 ? req.url : req.url.slice(0, queryAt);
  if (path.includes('%')) {
    const segments = path.split('/');
    if (!segments.every(decodes)) {
      const literal = segments
        .map((segment) => (decodes(segment) ? segment : segment.replaceAll('%', '%25')))
        .join('/');
      req.url = literal + (queryAt < 0 ? '' : req.url.slice(queryAt));
    }
  }
  next();
}
