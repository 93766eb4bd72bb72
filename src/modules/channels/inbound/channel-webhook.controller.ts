import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { responseHeaders } from '@/common/http/response-headers.docs';
import type { Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { RawResponse } from '@/common/http/response-message.decorator';
import { isId } from '@/common/ids';
import { AnyQuery } from '@/common/validation/query-parameters';
import { Database } from '@/database/database.service';
import { ChannelsService } from '@/modules/agents/channels.service';
import { metaSignatureValid } from '../meta/webhook-payloads';
import { ChannelInboundRepository } from './channel-inbound.repository';
import { ChannelInboundWorker } from './channel-inbound.worker';

export const CHANNEL_WEBHOOK_PREFIX = 'api/v1/channels';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The providers' webhook (docs/api.md §4d), outside the console prefix and without a key: Meta's
 * verification handshake (GET), and its signed notifications (POST). The channel is the one the
 * URL names, never one named inside the body. A notification is checked against the channel's
 * app secret over the raw bytes, in constant time, before anything is stored (401 otherwise);
 * then kept, acknowledged at once, and processed by a worker, so a crash after the 200 loses
 * nothing.
 */
@ApiTags('channels')
@Public()
@RawResponse()
@AnyQuery()
@Controller(`${CHANNEL_WEBHOOK_PREFIX}/:channelId/webhook`)
export class ChannelWebhookController {
  constructor(
    private readonly db: Database,
    private readonly channels: ChannelsService,
    private readonly inbound: ChannelInboundRepository,
    private readonly worker: ChannelInboundWorker,
  ) {}

  @Get()
  @ApiOperation({
    summary: "Meta's webhook verification: answers hub.challenge when hub.verify_token matches",
  })
  @ApiParam({ name: 'channelId', type: String })
  @ApiOkResponse({
    description: 'The challenge, as text/plain',
    content: { 'text/plain': { schema: { type: 'string' } } },
    headers: responseHeaders(200),
  })
  @ApiErrorResponse(403, 'forbidden: not a subscribe request, or a wrong verify token')
  @ApiErrorResponse(404, 'not_found: no connected WhatsApp, Messenger or Instagram channel')
  @ApiHeadersTooLarge()
  async verifyChannelWebhook(
    @Param('channelId') channelId: string,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const found = isId(channelId) ? await this.channels.metaChannel(channelId.toLowerCase()) : null;
    if (!found) {
      throw Errors.notFound('Channel not found');
    }
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    const expected = found.secrets.verify_token ?? '';
    if (
      query['hub.mode'] !== 'subscribe' ||
      typeof token !== 'string' ||
      typeof challenge !== 'string' ||
      challenge.length > 256 ||
      !expected ||
      !sameText(token, expected)
    ) {
      throw Errors.forbidden('Webhook verification failed');
    }
    res.status(200).type('text/plain').send(challenge);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Meta's notifications, signed with X-Hub-Signature-256 over the raw body; acknowledged at once",
  })
  @ApiParam({ name: 'channelId', type: String })
  @ApiOkResponse({
    description: 'Kept, to be processed',
    content: {
      'application/json': {
        schema: { type: 'object', properties: { received: { type: 'boolean', enum: [true] } } },
      },
    },
    headers: responseHeaders(200),
  })
  @ApiErrorResponse(400, 'bad_request: a body that is not JSON (after a valid signature)')
  @ApiErrorResponse(401, 'unauthorized: a missing or wrong X-Hub-Signature-256')
  @ApiErrorResponse(404, 'not_found: no connected WhatsApp, Messenger or Instagram channel')
  @ApiErrorResponse(413, 'bad_request: a body over the size limit')
  @ApiErrorResponse(415, 'bad_request: not application/json')
  @ApiHeadersTooLarge()
  async receiveChannelWebhook(
    @Param('channelId') channelId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const found = isId(channelId) ? await this.channels.metaChannel(channelId.toLowerCase()) : null;
    if (!found) {
      throw Errors.notFound('Channel not found');
    }
    const signature = req.headers['x-hub-signature-256'];
    if (
      !req.rawBody ||
      !metaSignatureValid(
        req.rawBody,
        typeof signature === 'string' ? signature : undefined,
        found.secrets.app_secret ?? '',
      )
    ) {
      throw Errors.unauthorized('Missing or wrong X-Hub-Signature-256');
    }
    if (req.bodyError) {
      throw req.bodyError;
    }
    const row = await this.db.transaction(() =>
      this.inbound.insert(found.channel.teamId, found.channel.id, req.rawBody!.toString('utf8')),
    );
    this.worker.schedule({ id: row.id, teamId: row.teamId });
    res.status(200).json({ received: true });
  }
}
