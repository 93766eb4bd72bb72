import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import { Page, PaginationMeta } from '../pagination/page';
import { RAW_RESPONSE, RESPONSE_MESSAGE } from './response-message.decorator';

export interface Envelope {
  message: string;
  data: unknown;
  meta?: PaginationMeta;
}

/** How the route's handler results become its success bodies; null for a route that answers raw. */
export function envelopeFor(
  reflector: Reflector,
  context: ExecutionContext,
): ((result: unknown) => Envelope) | null {
  const handler = context.getHandler();
  if (
    context.getType() !== 'http' ||
    reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [handler, context.getClass()])
  ) {
    return null;
  }
  const message = reflector.get<string | undefined>(RESPONSE_MESSAGE, handler) ?? 'Success';
  return (result) => {
    if (result instanceof Page) {
      return { message, data: result.items, meta: result.meta };
    }
    return { message, data: result ?? null };
  };
}

/** Wraps every JSON success body in the contract's envelope. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const envelope = envelopeFor(this.reflector, context);
    return envelope ? next.handle().pipe(map(envelope)) : next.handle();
  }
}
