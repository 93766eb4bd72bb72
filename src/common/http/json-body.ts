import { json } from 'body-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError, Errors } from './api-error';

const MAX_JSON_DEPTH = 64;

interface BodyParserError {
  type?: string;
  status?: number;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJsonContentType(req: Request): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') {
      continue;
    }
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) {
      return deepest;
    }
    for (const child of Object.values(current)) {
      pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

function toApiError(error: BodyParserError): ApiError {
  switch (error.type) {
    case 'entity.too.large':
      return Errors.badRequest('Request body is larger than the size limit', 413);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return Errors.badRequest('Unsupported body encoding or charset', 415);
    case 'entity.parse.failed':
      return Errors.badRequest('Request body is not valid JSON');
    default:
      return Errors.badRequest('Request body could not be read', error.status ?? 400);
  }
}

/**
 * Reads JSON bodies without failing the request on the spot: a body that cannot be read is kept
 * as `req.bodyError` and reported by the body guard, after authentication, so that an anonymous
 * caller learns nothing about body handling and every error carries the usual headers.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = json({ limit: limitBytes, strict: true, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) {
      next();
      return;
    }
    if (!isJsonContentType(req)) {
      req.bodyError = Errors.badRequest('Content-Type must be application/json', 415);
      req.resume();
      next();
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (error) {
        req.bodyError = toApiError(error as BodyParserError);
        req.body = undefined;
      } else if (depthOf(req.body) > MAX_JSON_DEPTH) {
        req.bodyError = Errors.badRequest(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
        req.body = undefined;
      }
      next();
    });
  };
}
