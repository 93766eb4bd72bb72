import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** Paths only: query strings can carry stream tickets, and headers carry keys. */
export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/** Probes come every few seconds from every balancer: logged at debug while they succeed. */
function isProbe(req: IncomingMessage): boolean {
  return PROBE_PATHS.has(pathOf(req.url ?? ''));
}

/**
 * A 502 is another service failing (an MCP server, a customer's API): worth a warning, not an
 * error of this one. 501 is the contract's answer for calls.
 */
function accessLogLevel(req: IncomingMessage, status: number): 'debug' | 'info' | 'warn' | 'error' {
  if (isProbe(req) && status < 400) {
    return 'debug';
  }
  if (status >= 500 && status !== 501 && status !== 502) {
    return 'error';
  }
  return status === 502 ? 'warn' : 'info';
}

/**
 * The client's address is Express's `req.ip`, which follows TRUST_PROXY; the trace id was read
 * while the request's span was active (trace-context.middleware.ts).
 */
function requestFacts(req: Request): Record<string, unknown> {
  const { principal, ip, headers, traceId } = req;
  const userAgent = headers['user-agent'];
  return {
    ...(principal?.keyId ? { api_key_id: principal.keyId } : {}),
    client_ip: ip ?? req.socket?.remoteAddress,
    ...(userAgent ? { user_agent: userAgent.slice(0, 256) } : {}),
    ...(traceId ? { trace_id: traceId } : {}),
  };
}

/**
 * Gives the request its logger (the root's child naming `request_id`, which the application's
 * logger uses for lines written while the request is served) and writes one access line when the
 * response is done or the connection closes first. The line is built only when its level is
 * enabled: at LOG_LEVEL=warn a successful request costs one child logger and two listeners.
 */
export function accessLog(root: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = Date.now();
    const log = root.child({ request_id: req.id });
    req.log = log;
    const done = () => {
      res.off('close', done);
      res.off('finish', done);
      const level = accessLogLevel(req, res.statusCode);
      if (!log.isLevelEnabled(level)) {
        return;
      }
      const path = pathOf(req.originalUrl ?? req.url ?? '');
      log[level](
        {
          req: { method: req.method, path },
          res: { status: res.statusCode },
          duration_ms: Date.now() - started,
          ...requestFacts(req),
        },
        `${req.method} ${path} ${res.statusCode}`,
      );
    };
    res.on('close', done);
    res.on('finish', done);
    next();
  };
}
