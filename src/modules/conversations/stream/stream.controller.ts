import { applyDecorators, Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiHeadersTooLarge } from '@/common/http/api-docs.decorators';
import { ErrorBodyDto } from '@/common/http/error-body.dto';
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
    }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: 'validation_error: `after` is neither a message id nor an ISO-8601 time',
    }),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'unauthorized: no ticket' }),
    ApiNotFoundResponse({
      type: ErrorBodyDto,
      description: 'not_found: bad, used, expired or mismatched ticket; unknown target',
    }),
    ApiTooManyRequestsResponse({
      type: ErrorBodyDto,
      description: 'too_many_requests: too many open streams for the key (no request_id)',
    }),
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
  messagesStream(@Req() req: Request, @Res() res: Response): void {
    this.streams.open(req, res);
  }

  @Get('stream')
  @ApiStream()
  stream(@Req() req: Request, @Res() res: Response): void {
    this.streams.open(req, res);
  }
}
