import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { ChannelsService } from '@/modules/agents/channels.service';
import { allowPreflight } from './widget-cors';

/**
 * CORS preflights of the widget API. A preflight carries no key, so it cannot name its web chat:
 * an origin that some connected web chat allows is let through (each request then checks its own
 * channel's origins, 403 otherwise); any other origin gets no CORS headers, and the browser stops.
 */
@Injectable()
export class WidgetPreflightMiddleware implements NestMiddleware {
  constructor(private readonly channels: ChannelsService) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'OPTIONS') {
      next();
      return;
    }
    const origin = req.headers.origin;
    if (!origin || !(await this.channels.anyWebchatAllows(origin))) {
      next(Errors.forbidden('This origin may not use the web chat'));
      return;
    }
    allowPreflight(res, origin);
    res.status(204).end();
  }
}
