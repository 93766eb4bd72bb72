import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { IS_PUBLIC } from './public.decorator';
import { RouteMetadata } from './route-metadata';

/** Reports a body that could not be read (see json-body.ts), now that the caller is known. */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  constructor(private readonly metadata: RouteMetadata) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (req.bodyError && !this.metadata.get<boolean>(IS_PUBLIC, context)) {
      throw req.bodyError;
    }
    return true;
  }
}
