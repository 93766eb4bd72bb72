import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorBodyDto } from '@/common/http/error-body.dto';
import { Scope } from './scopes';

export const REQUIRED_SCOPES = 'console:required-scopes';
export const API_KEY_SECURITY = 'api-key';

/** The scopes a route needs (all of them); also documents its security and auth errors. */
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
  );
