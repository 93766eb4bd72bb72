import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from '@/common/http/principal';

/** The authenticated caller; only on routes behind the API-key guard. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<Request>().principal;
    if (!principal) {
      throw new Error('CurrentPrincipal used on a route without an authenticated caller');
    }
    return principal;
  },
);
