import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Errors } from '@/common/http/api-error';
import { IS_PUBLIC } from '@/common/http/public.decorator';
import { REQUIRED_SCOPES } from './require-scopes.decorator';
import { grants, Scope } from './scopes';

/** Denies by default: a route that is neither public nor scoped is refused. */
@Injectable()
export class ScopeGuard implements CanActivate {
  private readonly logger = new Logger(ScopeGuard.name);

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) {
      return true;
    }
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(
      REQUIRED_SCOPES,
      targets,
    );
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
