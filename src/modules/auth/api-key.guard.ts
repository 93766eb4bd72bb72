import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { IS_PUBLIC } from '@/common/http/public.decorator';
import { RouteMetadata } from '@/common/http/route-metadata';
import { ApiKeyAuthenticator } from './api-key-authenticator';

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly metadata: RouteMetadata,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.metadata.get<boolean>(IS_PUBLIC, context)) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    const authentication = await this.authenticator.authenticate(req);
    if (authentication.refusal) {
      throw authentication.refusal();
    }
    req.principal = authentication.principal;
    return true;
  }
}
