import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrorResponse, ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { Errors } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { responseHeaders } from '@/common/http/response-headers.docs';
import { RawResponse } from '@/common/http/response-message.decorator';
import { ChannelsService } from '@/modules/agents/channels.service';
import { CustomerViewService } from '@/modules/conversations/customer-view.service';
import { VisitorsService } from './visitors.service';
import { admitOrigin, WIDGET_API_PREFIX } from './widget-cors';
import { WidgetTickets } from './widget-tickets';

/**
 * The visitor's live conversation, in the customer's view, with the framing of the staff stream
 * (docs/api.md §5): `event: message` frames, heartbeats carrying the resume point, `Last-Event-ID`
 * or `after` replaying what came after it. Opened with a ticket: an EventSource sends no headers
 * of its own, and its Origin must still be one the chat allows.
 */
@ApiTags('widget')
@Public()
@RawResponse()
@Controller(WIDGET_API_PREFIX)
export class WidgetStreamController {
  constructor(
    private readonly visitors: VisitorsService,
    private readonly channels: ChannelsService,
    private readonly tickets: WidgetTickets,
    private readonly customerView: CustomerViewService,
  ) {}

  @Get('stream')
  @ApiHeadersTooLarge()
  @ApiOperation({
    summary: "Server-Sent Events: the visitor's conversation, live, as the visitor sees it",
  })
  @ApiQuery({ name: 'ticket', type: String, required: true })
  @ApiQuery({ name: 'after', type: String, required: false })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Wins over `after`' })
  @ApiOkResponse({
    description: 'text/event-stream',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
    headers: responseHeaders(200),
  })
  @ApiErrorResponse(400, 'validation_error: a bad resume point')
  @ApiErrorResponse(401, 'unauthorized: no ticket')
  @ApiErrorResponse(403, 'forbidden: an origin the chat does not allow')
  @ApiErrorResponse(404, 'not_found: bad, used or expired ticket')
  @ApiErrorResponse(429, 'too_many_requests: too many open streams for the visitor')
  async openWidgetStream(
    @Query('ticket') ticket: unknown,
    @Query('after') after: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const grant = await this.tickets.redeem(typeof ticket === 'string' ? ticket : undefined);
    const visitor = await this.visitors.findById(grant.teamId, grant.visitorId);
    const channel = visitor && (await this.channels.webchatById(visitor.channelId));
    if (!channel) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    admitOrigin(req, res, channel);
    const prepared = await this.customerView.prepareStream(res, grant, {
      after,
      lastEventId: req.headersDistinct['last-event-id'],
    });
    this.customerView.openStream(res, prepared);
  }
}
