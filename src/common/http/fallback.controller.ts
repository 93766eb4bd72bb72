import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { Errors } from './api-error';
import { AnyQuery } from '../validation/query-parameters';
import { Public } from './public.decorator';

/**
 * Unknown routes under the API prefix. Registered last, it catches them inside the request
 * pipeline, so that they are rate limited and answered with the usual headers.
 */
@ApiExcludeController()
@Public()
// An unknown route is a 404 whatever its query string.
@AnyQuery()
@Controller()
export class FallbackController {
  @All('{*path}')
  unknownRoute(@Req() req: Request): never {
    throw Errors.notFound(`No route ${req.method} ${req.path}`);
  }
}
