import { applyDecorators, SetMetadata } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';

export const IS_PUBLIC = 'console:public';

/**
 * The route takes no API key (health probes, the ticket-authenticated stream, unknown routes). Its
 * OpenAPI operation says so with an empty `security`, rather than by leaving it out.
 */
export const Public = () =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), SetMetadata(DECORATORS.API_SECURITY, []));
