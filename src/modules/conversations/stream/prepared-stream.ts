import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { StreamGrant } from '@/common/state/ports';
import { StreamStart } from './conversation-stream';

/** A stream that passed every check and holds its slot; nothing has been written to the client. */
export interface PreparedStream {
  grant: StreamGrant;
  conversationId: string;
  start: StreamStart;
}

/** The stream StreamAccessGuard prepared for this request. */
export const PreparedStream = createParamDecorator(
  (_: unknown, context: ExecutionContext): PreparedStream => {
    const stream = context.switchToHttp().getRequest<Request>().preparedStream;
    if (!stream) {
      throw new Error('PreparedStream used on a route without StreamAccessGuard');
    }
    return stream;
  },
);
