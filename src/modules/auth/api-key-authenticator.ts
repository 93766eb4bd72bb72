import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError, Errors } from '@/common/http/api-error';
import { Principal } from '@/common/http/principal';
import { PrincipalResolver } from '@/common/rate-limit/principal-resolver';
import { CLUSTER_EVENTS, ClusterEvents } from '@/common/state/ports';
import { hashApiKey, isApiKeyFormat } from './api-key-secret';
import { ApiKeyCredential, ApiKeysService, KEY_REVOKED } from './api-keys.service';

/** Builds the error only when it is thrown: many requests (streams, probes) never need it. */
export type Refusal = () => ApiError;

export type Authentication =
  { principal: Principal; refusal?: undefined } | { principal?: undefined; refusal: Refusal };

interface CachedKey {
  record: ApiKeyCredential | null;
  loadedAt: number;
}

/** How long a looked-up key is trusted before the database is asked again; bounds revocation. */
export const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;

/**
 * Reads the credentials of a request and decides who it is. The answer is kept on the request,
 * so the rate limiter and the API-key guard share one lookup, and keys are cached for a few
 * seconds so that not every request reads the database.
 */
@Injectable()
export class ApiKeyAuthenticator implements PrincipalResolver {
  private readonly byRequest = new WeakMap<Request, Promise<Authentication>>();
  private readonly cache = new Map<string, CachedKey>();

  constructor(
    private readonly apiKeys: ApiKeysService,
    @Inject(CLUSTER_EVENTS) events: ClusterEvents,
  ) {
    events.on(KEY_REVOKED, (keyId) => this.forgetKey(keyId));
  }

  authenticate(req: Request): Promise<Authentication> {
    let result = this.byRequest.get(req);
    if (!result) {
      result = this.resolve(req);
      this.byRequest.set(req, result);
    }
    return result;
  }

  async resolvePrincipal(req: Request): Promise<Principal | null> {
    return (await this.authenticate(req)).principal ?? null;
  }

  private forgetKey(keyId: string): void {
    for (const [keyHash, cached] of this.cache) {
      if (cached.record?.id === keyId) {
        this.cache.delete(keyHash);
      }
    }
  }

  private async resolve(req: Request): Promise<Authentication> {
    const presented = presentedKey(req);
    if (typeof presented === 'function') {
      return { refusal: presented };
    }
    if (!isApiKeyFormat(presented)) {
      return { refusal: Errors.apiKeyInvalid };
    }
    const keyHash = hashApiKey(presented);
    const record = await this.lookup(keyHash);
    if (!record || record.revokedAt) {
      return { refusal: Errors.apiKeyInvalid };
    }
    if (record.expiresAt && record.expiresAt.getTime() <= Date.now()) {
      return { refusal: Errors.apiKeyExpired };
    }
    this.apiKeys.touch(record.id);
    return {
      principal: {
        keyId: record.id,
        teamId: record.teamId,
        scopes: record.scopes,
        agentIds: record.agentIds ?? null,
      },
    };
  }

  private async lookup(keyHash: string): Promise<ApiKeyCredential | null> {
    const now = Date.now();
    const cached = this.cache.get(keyHash);
    if (cached && now - cached.loadedAt < KEY_CACHE_TTL_MS) {
      return cached.record;
    }
    const record = await this.apiKeys.findCredential(keyHash);
    if (this.cache.size >= KEY_CACHE_MAX_ENTRIES) {
      this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.delete(keyHash);
    this.cache.set(keyHash, { record, loadedAt: now });
    return record;
  }
}

/** The key a request carries, or the reason it carries no usable one. */
function presentedKey(req: Request): string | Refusal {
  // Node keeps only the first of repeated Authorization headers and joins repeated X-Api-Key
  // ones: the distinct view is the only one that shows a request carrying several.
  const authorizations = req.headersDistinct.authorization ?? [];
  const apiKeyHeaders = req.headersDistinct['x-api-key'] ?? [];
  if (authorizations.length === 0 && apiKeyHeaders.length === 0) {
    return Errors.apiKeyMissing;
  }
  if (authorizations.length > 1 || apiKeyHeaders.length > 1) {
    return () => Errors.unauthorized('Send one Authorization or X-Api-Key header, not several');
  }
  let fromAuthorization: string | undefined;
  if (authorizations.length === 1) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorizations[0]);
    if (!match) {
      return () => Errors.unauthorized('The Authorization header must be "Bearer <API key>"');
    }
    fromAuthorization = match[1];
  }
  let fromHeader: string | undefined;
  if (apiKeyHeaders.length === 1) {
    fromHeader = apiKeyHeaders[0].trim();
    if (!fromHeader) {
      return () => Errors.unauthorized('The X-Api-Key header must carry one API key');
    }
  }
  if (
    fromAuthorization !== undefined &&
    fromHeader !== undefined &&
    fromAuthorization !== fromHeader
  ) {
    return () => Errors.unauthorized('Authorization and X-Api-Key carry different keys; send one');
  }
  return (fromAuthorization ?? fromHeader)!;
}
