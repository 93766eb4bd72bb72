import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { Errors } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { responseHeaders } from '@/common/http/response-headers.docs';
import { RawResponse } from '@/common/http/response-message.decorator';
import { SkipRateLimit } from '@/common/rate-limit/rate-limit.guard';
import { AnyQuery } from '@/common/validation/query-parameters';

/**
 * The bundle `npm run build` leaves beside the server: the same path from src/ (tests) and dist/
 * (the build), three folders up being the repository's root in both.
 */
const BUNDLE = join(__dirname, '..', '..', '..', 'dist', 'widget', 'widget.js');

/** Pages may keep it this long before asking again (it is revalidated by ETag). */
const MAX_AGE_S = 300;

interface Script {
  body: Buffer;
  etag: string;
}

/**
 * GET /widget.js, the script of the web chat's snippet: no key, cacheable, loadable by any site
 * (its own Cross-Origin-Resource-Policy; the API's default would stop other origins' pages).
 */
@ApiTags('widget')
@Public()
@RawResponse()
@SkipRateLimit()
// Pages add cache-busting parameters (`?v=3`) as they please.
@AnyQuery()
@Controller()
export class WidgetScriptController {
  private script: Promise<Script> | null = null;

  @Get('widget.js')
  @ApiHeadersTooLarge()
  @ApiOperation({ summary: 'The web-chat widget script (no key)' })
  @ApiOkResponse({
    description: 'application/javascript',
    content: { 'application/javascript': { schema: { type: 'string' } } },
    headers: responseHeaders(200, { rateLimited: false }),
  })
  async getWidgetScript(
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const { body, etag } = await this.load();
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', `public, max-age=${MAX_AGE_S}`);
    res.setHeader('ETag', etag);
    if (ifNoneMatch === etag) {
      res.status(304).end();
      return;
    }
    res.type('application/javascript; charset=utf-8').send(body);
  }

  private load(): Promise<Script> {
    this.script ??= readFile(BUNDLE).then(
      (body) => ({ body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` }),
      () => {
        this.script = null;
        throw Errors.unavailable('widget.js has not been built: npm run build');
      },
    );
    return this.script;
  }
}
