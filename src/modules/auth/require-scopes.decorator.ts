import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiPayloadTooLargeResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { ErrorBodyDto } from '@/common/http/error-body.dto';
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
    ApiUnauthorizedResponse({
      type: ErrorBodyDto,
      description: 'api_key_missing, unauthorized, api_key_invalid or api_key_expired',
    }),
    ApiForbiddenResponse({
      type: ErrorBodyDto,
      description: `insufficient_scope: needs ${scopes.join(', ')}`,
    }),
    ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: 'too_many_requests' }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: 'bad_request: malformed JSON body or header, NUL in the URL',
    }),
    ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: 'bad_request: body too large' }),
    ApiUnsupportedMediaTypeResponse({
      type: ErrorBodyDto,
      description: 'bad_request: the body is not JSON',
    }),
    ApiHeadersTooLarge(),
  );
