import type { Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import type { AgentChannelEntity } from '@/modules/agents/entities/agent-channel.entity';

/** Where the widget's public API lives: outside the console prefix, like the script. */
export const WIDGET_API_PREFIX = 'api/v1/widget';

/** Preflights are remembered by browsers this long (seconds). */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Admits the request's browser Origin if the chat allows it, with CORS for it; any other origin
 * (or none) is 403 without CORS headers, so the page can read nothing.
 */
export function admitOrigin(
  req: Request,
  res: Response,
  channel: Pick<AgentChannelEntity, 'allowedOrigins'>,
): void {
  const origin = req.headers.origin;
  if (!origin || !channel.allowedOrigins.includes(origin)) {
    throw Errors.forbidden('This origin may not use this web chat');
  }
  allowOrigin(res, origin);
}

/** Lets pages of `origin` read this response (and its Retry-After), and nobody else. */
export function allowOrigin(res: Response, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id');
  res.vary('Origin');
}

/** What a preflight of an allowed origin is answered: the methods and headers the widget uses. */
export function allowPreflight(res: Response, origin: string): void {
  allowOrigin(res, origin);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Last-Event-ID');
  res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
}
