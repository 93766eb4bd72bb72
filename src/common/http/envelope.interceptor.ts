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

/** Wraps every JSON success body in the contract's envelope. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    if (
      context.getType() !== 'http' ||
      this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [handler, context.getClass()])
    ) {
      return next.handle();
    }
    const message = this.reflector.get<string | undefined>(RESPONSE_MESSAGE, handler) ?? 'Success';
    return next.handle().pipe(
      map((result): Envelope => {
        if (result instanceof Page) {
          return { message, data: result.items, meta: result.meta };
        }
        return { message, data: result ?? null };
      }),
    );
  }
}
