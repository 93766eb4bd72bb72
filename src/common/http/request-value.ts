import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * A parameter decorator for what a guard put on the request. On a route without that guard the
 * value is missing: a mistake in the code, reported as `missing`, never as the client's fault.
 */
export function requestValue<K extends keyof Request, T>(
  key: K,
  missing: string,
  pick: (value: NonNullable<Request[K]>) => T,
) {
  return createParamDecorator((_: unknown, context: ExecutionContext): T => {
    const value = context.switchToHttp().getRequest<Request>()[key];
    if (value === undefined || value === null) {
      throw new Error(missing);
    }
    return pick(value);
  });
}
