import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { Page, PaginationMeta } from '../pagination/page';
import { RAW_RESPONSE, RESPONSE_MESSAGE } from './response-message.decorator';
import { RouteMetadata } from './route-metadata';

export interface Envelope {
  message: string;
  data: unknown;
  meta?: PaginationMeta;
}

/** How the route's handler results become its success bodies; null for a route that answers raw. */
export function envelopeFor(
  metadata: RouteMetadata,
  context: ExecutionContext,
): ((result: unknown) => Envelope) | null {
  if (context.getType() !== 'http' || metadata.get<boolean>(RAW_RESPONSE, context)) {
    return null;
  }
  const message = metadata.get<string>(RESPONSE_MESSAGE, context) ?? 'Success';
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
  constructor(private readonly metadata: RouteMetadata) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const envelope = envelopeFor(this.metadata, context);
    return envelope ? next.handle().pipe(map(envelope)) : next.handle();
  }
}
