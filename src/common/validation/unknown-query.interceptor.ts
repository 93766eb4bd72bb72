import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { Errors } from '../http/api-error';
import { RouteMetadata } from '../http/route-metadata';
import { ANY_QUERY, QueryParameters, queryParametersOf } from './query-parameters';
import { fieldPath } from './validation-messages';

/**
 * Refuses query parameters a route does not take, worded as unknown body fields are. Routes with
 * a `@Query()` DTO are left to the validation pipe; the others (no query, or named parameters
 * only) are checked here. An interceptor, so that it runs after every guard: auth, scope, and a
 * route's own (the stream's ticket) come first.
 */
@Injectable()
export class UnknownQueryInterceptor implements NestInterceptor {
  private readonly byHandler = new WeakMap<object, QueryParameters>();

  constructor(private readonly metadata: RouteMetadata) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const accepted = this.parametersOf(context);
    if (accepted.kind === 'named') {
      const query = context.switchToHttp().getRequest<Request>().query;
      const unknown = Object.keys(query ?? {}).filter((name) => !accepted.names.has(name));
      if (unknown.length > 0) {
        throw Errors.validation(unknown.map((name) => `${fieldPath('', name)}: is not allowed`));
      }
    }
    return next.handle();
  }

  private parametersOf(context: ExecutionContext): QueryParameters {
    const handler = context.getHandler();
    let accepted = this.byHandler.get(handler);
    if (!accepted) {
      accepted = queryParametersOf(
        context.getClass(),
        handler,
        this.metadata.get<boolean>(ANY_QUERY, context) === true,
      );
      this.byHandler.set(handler, accepted);
    }
    return accepted;
  }
}
