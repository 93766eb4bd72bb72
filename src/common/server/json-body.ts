import { json } from 'body-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError, Errors } from '../http/api-error';

const MAX_JSON_DEPTH = 64;
/** The paths whose raw bytes are kept beside the parsed body: the channels' webhooks. */
const RAW_BODY_PREFIX = '/api/v1/channels/';

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

interface Shape {
  depth: number;
  hasNul: boolean;
  hasLoneSurrogate: boolean;
}

/** In Unicode mode a surrogate pair is one code point: only unpaired halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** How deep the parsed JSON nests, and whether a key or string holds NUL or a lone surrogate. */
function shapeOf(value: unknown): Shape {
  const shape: Shape = { depth: 0, hasNul: false, hasLoneSurrogate: false };
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current === 'string') {
      shape.hasNul ||= current.includes('\0');
      shape.hasLoneSurrogate ||= LONE_SURROGATE.test(current);
      continue;
    }
    if (current === null || typeof current !== 'object') {
      continue;
    }
    shape.depth = Math.max(shape.depth, depth);
    if (shape.depth > MAX_JSON_DEPTH) {
      return shape;
    }
    for (const [key, child] of Object.entries(current)) {
      shape.hasNul ||= key.includes('\0');
      shape.hasLoneSurrogate ||= LONE_SURROGATE.test(key);
      pending.push([child, depth + 1]);
    }
  }
  return shape;
}

const BODY_ERRORS: Record<string, () => ApiError> = {
  'entity.too.large': () => Errors.badRequest('Request body is larger than the size limit', 413),
  'charset.unsupported': () => Errors.badRequest('Unsupported body charset', 415),
  'encoding.unsupported': () => Errors.badRequest('Unsupported body encoding', 415),
  'entity.parse.failed': () => Errors.badRequest('Request body is not valid JSON'),
};

function toApiError(error: BodyParserError): ApiError {
  const known = error.type ? BODY_ERRORS[error.type] : undefined;
  if (known) {
    return known();
  }
  const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 400;
  return Errors.badRequest('Request body could not be read', status);
}

/**
 * Reads JSON bodies without failing the request on the spot: a body that cannot be read is kept
 * as `req.bodyError` and reported by the body guard, after authentication, so that an anonymous
 * caller learns nothing about body handling and every error carries the usual headers.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = json({
    limit: limitBytes,
    strict: true,
    type: () => true,
    // Providers sign the bytes they sent: their webhooks keep them to check the signature.
    verify: (req: Request, _res, buffer) => {
      if (req.url.startsWith(RAW_BODY_PREFIX)) {
        req.rawBody = buffer;
      }
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (/%00|\0/.test(req.url)) {
      req.bodyError = Errors.badRequest('The URL must not contain NUL characters');
    }
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
    parse(req, res, (error?: BodyParserError) => {
      if (error) {
        req.bodyError = toApiError(error);
        req.body = undefined;
      } else {
        const shape = shapeOf(req.body);
        if (shape.depth > MAX_JSON_DEPTH) {
          req.bodyError = Errors.badRequest(
            `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
          );
          req.body = undefined;
        } else if (shape.hasNul) {
          // PostgreSQL cannot store U+0000 in text; refuse it the same way on every database.
          req.bodyError = Errors.badRequest(
            'Request body must not contain NUL characters (\\u0000)',
          );
          req.body = undefined;
        } else if (shape.hasLoneSurrogate) {
          // Not text in any encoding: validators that re-encode it throw, PostgreSQL mangles it.
          req.bodyError = Errors.badRequest(
            'Request body must be valid Unicode (it holds an unpaired surrogate such as \\ud800)',
          );
          req.body = undefined;
        }
      }
      next();
    });
  };
}
