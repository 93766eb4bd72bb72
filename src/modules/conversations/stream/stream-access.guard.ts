import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { StreamService } from './stream.service';

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Checks the ticket, the target and the resume point, and takes a stream slot (see StreamService). */
@Injectable()
export class StreamAccessGuard implements CanActivate {
  constructor(private readonly streams: StreamService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const { agentId, conversationId } = req.params as Record<string, string>;
    if (!isId(agentId) || !isId(conversationId)) {
      throw Errors.notFound();
    }
    await this.streams.prepare(req, res, {
      agentId: agentId.toLowerCase(),
      conversationId: conversationId.toLowerCase(),
      ticket: single(req.query.ticket),
      after: req.query.after,
      lastEventId: req.headersDistinct['last-event-id'],
    });
    return true;
  }
}
