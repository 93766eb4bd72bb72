import {
  applyDecorators,
  Controller,
  Headers,
  MessageEvent,
  Param,
  Query,
  Res,
  Sse,
} from '@nestjs/common';
import {
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Observable } from 'rxjs';
import { ErrorBodyDto } from '@/common/http/error-body.dto';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Public } from '@/common/http/public.decorator';
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
    ApiQuery({ name: 'ticket', required: true }),
    ApiQuery({
      name: 'after',
      required: false,
      description: 'A message id of this conversation or an ISO-8601 time',
    }),
    ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Wins over `after`' }),
    ApiOkResponse({
      description: 'text/event-stream',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
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
  );

/**
 * The message stream, under its original and its newer path. It takes no API key (a browser's
 * EventSource cannot send one): the ticket stands in for it.
 */
@ApiTags('conversations')
@Public()
@Controller('agents/:agentId/conversations/:conversationId')
export class StreamController {
  constructor(private readonly streams: StreamService) {}

  @Sse('messages/stream')
  @ApiStream()
  messagesStream(
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('conversationId', ParseIdPipe) conversationId: string,
    @Query('ticket') ticket: string | undefined,
    @Query('after') after: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Observable<MessageEvent>> {
    return this.open({ agentId, conversationId, ticket, after, lastEventId }, res);
  }

  @Sse('stream')
  @ApiStream()
  stream(
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('conversationId', ParseIdPipe) conversationId: string,
    @Query('ticket') ticket: string | undefined,
    @Query('after') after: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Observable<MessageEvent>> {
    return this.open({ agentId, conversationId, ticket, after, lastEventId }, res);
  }

  private open(
    request: Parameters<StreamService['open']>[0],
    res: Response,
  ): Promise<Observable<MessageEvent>> {
    const single = (value: unknown) => (typeof value === 'string' ? value : undefined);
    useExactCacheControl(res);
    return this.streams.open(
      {
        ...request,
        ticket: single(request.ticket),
        after: single(request.after),
        lastEventId: single(request.lastEventId),
      },
      res,
    );
  }
}

/**
 * Nest writes `Cache-Control: private, no-cache, no-store, …` on SSE responses; the contract
 * promises exactly `no-cache`, which clients and proxies in front of them already rely on.
 */
function useExactCacheControl(res: Response): void {
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    headers?: Record<string, unknown>,
  ) => Response;
  res.writeHead = ((status: number, headers?: Record<string, unknown>) =>
    writeHead(status, { ...headers, 'Cache-Control': 'no-cache' })) as Response['writeHead'];
}
