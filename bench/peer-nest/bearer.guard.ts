import { createHash } from 'node:crypto';
import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request } from 'express';
import { Repository } from 'typeorm';
import { ApiKey } from './entities';

const SCOPE = 'peer:scope';
export const RequireScope = (scope: string) => SetMetadata(SCOPE, scope);

export type AuthedRequest = Request & { apiKey: ApiKey };

/**
 * `Authorization: Bearer <key>`, looked up through the repository on every request (no cache),
 * the key hashed as the service stores it (SHA-256, hex).
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const [scheme, key] = (req.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || !key) {
      throw new UnauthorizedException('Missing bearer token');
    }
    const keyHash = createHash('sha256').update(key).digest('hex');
    const apiKey = await this.apiKeys.findOne({ where: { keyHash } });
    if (!apiKey || apiKey.revokedAt || (apiKey.expiresAt && apiKey.expiresAt <= new Date())) {
      throw new UnauthorizedException('Invalid API key');
    }
    const scope = this.reflector.get<string | undefined>(SCOPE, context.getHandler());
    if (scope && !apiKey.scopes.includes('*') && !apiKey.scopes.includes(scope)) {
      throw new ForbiddenException('Missing scope');
    }
    req.apiKey = apiKey;
    return true;
  }
}
