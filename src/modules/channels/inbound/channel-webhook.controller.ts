import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiErrorResponse,
  ApiHeadersTooLarge,
  BACKLOG_REFUSAL,
} from '@/common/http/api-docs.decorators';
import { responseHeaders } from '@/common/http/response-headers.docs';
import type { Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { RawResponse } from '@/common/http/response-message.decorator';
import { AnyQuery } from '@/common/validation/query-parameters';
import { TEST_NUMBER_CHANNEL_ID } from '@/modules/agents/provider-channels.service';
import { ReplyRequests } from '@/modules/conversations/reply-requests.service';
import { sameSecret } from '../meta/webhook-payloads';
import { MetaSignatureGuard } from './meta-signature.guard';
import { WebhookTargets } from './webhook-targets';

export const CHANNEL_WEBHOOK_PREFIX = 'api/v1/channels';

const CHANNEL_ID_PARAM = {
  name: 'channelId',
  type: String,
  description: `A connected channel's id, or \`${TEST_NUMBER_CHANNEL_ID}\` for the shared WhatsApp test number`,
};

/**
 * The providers' webhook (docs/api.md §4d), outside the console prefix and without a key: Meta's
 * verification handshake (GET), and its signed notifications (POST). The channel is the one the
 * URL names, never one named inside the body (WebhookTargets). A notification is checked against
 * the channel's app secret over the raw bytes, in constant time, before its body is even judged
 * (MetaSignatureGuard: 401 otherwise); then kept, acknowledged at once, and processed by a
 * worker, so a crash after the 200 loses nothing. The installation's shared test number (TEST_WHATSAPP_* settings) has the fixed id
 * `test-whatsapp`, checked with its configured tokens; unconfigured, it is unknown (404).
 */
@ApiTags('channels')
@Public()
@RawResponse()
@AnyQuery()
@Controller(`${CHANNEL_WEBHOOK_PREFIX}/:channelId/webhook`)
export class ChannelWebhookController {
  constructor(
    private readonly targets: WebhookTargets,
    private readonly replyRequests: ReplyRequests,
  ) {}

  @Get()
  @ApiOperation({
    summary: "Meta's webhook verification: answers hub.challenge when hub.verify_token matches",
  })
  @ApiParam(CHANNEL_ID_PARAM)
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
    const found = await this.targets.find(channelId);
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    const expected = found.secrets.verify_token ?? '';
    if (
      query['hub.mode'] !== 'subscribe' ||
      typeof token !== 'string' ||
      typeof challenge !== 'string' ||
      challenge.length > 256 ||
      !expected ||
      !sameSecret(token, expected)
    ) {
      throw Errors.forbidden('Webhook verification failed');
    }
    res.status(200).type('text/plain').send(challenge);
  }

  @Post()
  @UseGuards(MetaSignatureGuard)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Meta's notifications, signed with X-Hub-Signature-256 over the raw body; acknowledged at once",
  })
  @ApiParam(CHANNEL_ID_PARAM)
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
  @ApiErrorResponse(503, BACKLOG_REFUSAL)
  @ApiHeadersTooLarge()
  async receiveChannelWebhook(@Req() req: Request, @Res() res: Response): Promise<void> {
    const target = this.targets.signedFor(req);
    if (req.bodyError) {
      throw req.bodyError;
    }
    // Refused, not kept: Meta redelivers it later, when this instance has caught up.
    this.replyRequests.assertRoom();
    await target.keep(req.rawBody!.toString('utf8'));
    res.status(200).json({ received: true });
  }
}
