import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requestValue } from '@/common/http/request-value';
import { ApiError, Errors } from '@/common/http/api-error';
import { isRecordGoneMeanwhile } from '@/database/errors';
import { ChannelsService } from '@/modules/agents/channels.service';
import type { AgentChannelEntity } from '@/modules/agents/entities/agent-channel.entity';
import { admitOrigin } from './widget-cors';

/**
 * The widget API's fence: `Authorization: Bearer pk_…` names a connected web chat (else 401), and
 * the browser's Origin must be one it allows (else 403, without CORS headers, so the page cannot
 * read anything). A non-browser client can send any Origin: the visitor token and the rate limits
 * are what stop it, not this check.
 */
@Injectable()
export class WidgetKeyGuard implements CanActivate {
  constructor(private readonly channels: ChannelsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const [scheme, key] = (req.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || !key) {
      throw Errors.unauthorized('A publishable key is required: Authorization: Bearer pk_…');
    }
    const channel = await this.channels.webchatForKey(key);
    if (!channel) {
      throw chatGone();
    }
    admitOrigin(req, res, channel);
    req.widgetChannel = channel;
    return true;
  }
}

const chatGone = () =>
  Errors.unauthorized('Unknown publishable key, or its web chat is not connected');

/**
 * A handler's work on the chat the guard found. When the chat's agent is deleted meanwhile (and
 * the chat with it), the records it reads or writes are gone: the answer is the guard's 401, what
 * the next request gets, not the 404 of a vanished record, which the widget API does not answer.
 */
export async function whileConnected<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isRecordGoneMeanwhile(error) || (error instanceof ApiError && error.code === 'not_found')) {
      throw chatGone();
    }
    throw error;
  }
}

/** The web chat WidgetKeyGuard found for this request. */
export const WidgetChannel = requestValue(
  'widgetChannel',
  'WidgetChannel used on a route without WidgetKeyGuard',
  (channel: AgentChannelEntity) => channel,
);
