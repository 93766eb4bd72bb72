import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { Errors } from '@/common/http/api-error';
import { IS_PUBLIC } from '@/common/http/public.decorator';
import { RouteMetadata } from '@/common/http/route-metadata';
import { REQUIRED_SCOPES } from './require-scopes.decorator';
import { grants, Scope } from './scopes';

/** Denies by default: a route that is neither public nor scoped is refused. */
@Injectable()
export class ScopeGuard implements CanActivate {
  private readonly logger = new Logger(ScopeGuard.name);

  constructor(private readonly metadata: RouteMetadata) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.metadata.get<boolean>(IS_PUBLIC, context)) {
      return true;
    }
    const required = this.metadata.get<Scope[]>(REQUIRED_SCOPES, context);
    if (!required?.length) {
      this.logger.error(
        `${context.getClass().name}.${context.getHandler().name} declares no scope`,
      );
      throw Errors.forbidden('This route is not available to API keys');
    }
    const principal = context.switchToHttp().getRequest<Request>().principal;
    const missing = required.find((scope) => !principal || !grants(principal.scopes, scope));
    if (missing) {
      throw Errors.insufficientScope(missing);
    }
    return true;
  }
}
