import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiErrorResponse, ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { Scope } from './scopes';

export const REQUIRED_SCOPES = 'console:required-scopes';
export const API_KEY_SECURITY = 'api-key';

/**
 * The scopes a route needs (all of them); also documents its security and the errors any
 * authenticated request can meet, whatever the route: auth, scope, rate limit, and a body or
 * header that cannot be read (a GET may carry a body too).
 */
export const RequireScopes = (...scopes: [Exclude<Scope, '*'>, ...Exclude<Scope, '*'>[]]) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiBearerAuth(),
    ApiSecurity(API_KEY_SECURITY),
    ApiErrorResponse(401, 'api_key_missing, unauthorized, api_key_invalid or api_key_expired'),
    ApiErrorResponse(403, `insufficient_scope: needs ${scopes.join(', ')}`),
    ApiErrorResponse(429, 'too_many_requests'),
    ApiErrorResponse(400, 'bad_request: malformed JSON body or header, NUL in the URL'),
    ApiErrorResponse(413, 'bad_request: body too large'),
    ApiErrorResponse(415, 'bad_request: the body is not JSON'),
    ApiHeadersTooLarge(),
  );
