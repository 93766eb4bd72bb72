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
import { ChannelsService, TEST_NUMBER_CHANNEL_ID } from '@/modules/agents/channels.service';
import { metaSignatureValid } from '../meta/webhook-payloads';
import { testNumberJob, TestNumberInboundWorker } from '../test-number/test-number-inbound.worker';
import { TestNumberRepository } from '../test-number/test-number.repository';
import { ChannelInboundRepository } from './channel-inbound.repository';
import { ChannelInboundWorker } from './channel-inbound.worker';

export const CHANNEL_WEBHOOK_PREFIX = 'api/v1/channels';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Where a webhook's notifications go, and the secrets they are checked with. */
interface WebhookTarget {
  secrets: Record<string, string>;
  /** Keeps a signed notification and schedules its processing. */
  keep(body: string): Promise<void>;
}

const CHANNEL_ID_PARAM = {
  name: 'channelId',
  type: String,
  description: `A connected channel's id, or \`${TEST_NUMBER_CHANNEL_ID}\` for the shared WhatsApp test number`,
};

/**
 * The providers' webhook (docs/api.md §4d), outside the console prefix and without a key: Meta's
 * verification handshake (GET), and its signed notifications (POST). The channel is the one the
 * URL names, never one named inside the body. A notification is checked against the channel's
 * app secret over the raw bytes, in constant time, before anything is stored (401 otherwise);
 * then kept, acknowledged at once, and processed by a worker, so a crash after the 200 loses
 * nothing. The installation's shared test number (TEST_WHATSAPP_* settings) has the fixed id
 * `test-whatsapp`, checked with its configured tokens; unconfigured, it is unknown (404).
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
    private readonly testNumber: TestNumberRepository,
    private readonly testNumberWorker: TestNumberInboundWorker,
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
    const found = await this.targetOf(channelId);
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
  @ApiHeadersTooLarge()
  async receiveChannelWebhook(
    @Param('channelId') channelId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const found = await this.targetOf(channelId);
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
    await found.keep(req.rawBody.toString('utf8'));
    res.status(200).json({ received: true });
  }

  /** The channel the URL names (or the shared test number), else 404. */
  private async targetOf(channelId: string): Promise<WebhookTarget> {
    const target =
      channelId === TEST_NUMBER_CHANNEL_ID
        ? this.testNumberTarget()
        : await this.channelTarget(channelId);
    if (!target) {
      throw Errors.notFound('Channel not found');
    }
    return target;
  }

  private async channelTarget(channelId: string): Promise<WebhookTarget | null> {
    const found = isId(channelId) ? await this.channels.metaChannel(channelId.toLowerCase()) : null;
    return (
      found && {
        secrets: found.secrets,
        keep: async (body) => {
          const { teamId, id } = found.channel;
          const row = await this.db.transaction(() => this.inbound.insert(teamId, id, body));
          this.worker.schedule({ id: row.id, teamId: row.teamId });
        },
      }
    );
  }

  private testNumberTarget(): WebhookTarget | null {
    const testNumber = this.channels.testNumber();
    return (
      testNumber && {
        secrets: testNumber.secrets,
        keep: async (body) => {
          const row = await this.db.transaction(() => this.testNumber.insert(body));
          this.testNumberWorker.schedule(testNumberJob(row.id));
        },
      }
    );
  }
}
