import { applyDecorators, Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrorResponse, ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { responseHeaders } from '@/common/http/response-headers.docs';
import { Public } from '@/common/http/public.decorator';
import { RawResponse } from '@/common/http/response-message.decorator';
import { StreamAccessGuard } from './stream-access.guard';
import { StreamService } from './stream.service';

const ApiStream = () =>
  applyDecorators(
    ApiOperation({
      summary: "Server-Sent Events: the conversation's messages, live",
      description:
        'Authenticated by a single-use `ticket` (POST …/stream-ticket), not an API key. Frames: ' +
        '`event: message` with the message as JSON, and `event: heartbeat` with `{"ts"}`; every frame ' +
        'has an `id:` that is a valid resume point. `Last-Event-ID` (or `after`) replays what came after it.',
    }),
    ApiParam({ name: 'agentId', type: String }),
    ApiParam({ name: 'conversationId', type: String }),
    ApiQuery({ name: 'ticket', type: String, required: true }),
    ApiQuery({
      name: 'after',
      type: String,
      required: false,
      description: 'A message id of this conversation or an ISO-8601 time',
    }),
    ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Wins over `after`' }),
    ApiOkResponse({
      description: 'text/event-stream',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
      headers: responseHeaders(200),
    }),
    ApiErrorResponse(400, 'validation_error: `after` is neither a message id nor an ISO-8601 time'),
    ApiErrorResponse(401, 'unauthorized: no ticket'),
    ApiErrorResponse(404, 'not_found: bad, used, expired or mismatched ticket; unknown target'),
    ApiErrorResponse(
      429,
      'too_many_requests: the rate limit, or too many open streams for the key (no request_id)',
    ),
    ApiHeadersTooLarge(),
  );

/**
 * The message stream, under its original and its newer path. It takes no API key (a browser's
 * EventSource cannot send one): the ticket stands in for it. The stream writes the response itself
 * (see EventStreamWriter).
 */
@ApiTags('conversations')
@Public()
@RawResponse()
@UseGuards(StreamAccessGuard)
@Controller('agents/:agentId/conversations/:conversationId')
export class StreamController {
  constructor(private readonly streams: StreamService) {}

  @Get('messages/stream')
  @ApiStream()
  openConversationMessagesStream(@Req() req: Request, @Res() res: Response): void {
    this.streams.open(req, res);
  }

  @Get('stream')
  @ApiStream()
  openConversationStream(@Req() req: Request, @Res() res: Response): void {
    this.streams.open(req, res);
  }
}
