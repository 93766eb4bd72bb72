import { pipeline } from 'node:stream/promises';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrorResponse } from '@/common/http/api-docs.decorators';
import { Errors } from '@/common/http/api-error';
import { IdParam } from '@/common/http/parse-id.pipe';
import { responseHeaders } from '@/common/http/response-headers.docs';
import { RawResponse } from '@/common/http/response-message.decorator';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { ConversationsService } from '../conversations.service';
import { MediaAttachments } from './media-attachments.service';

/** A customer's media, streamed from the channel's provider on demand (docs/api.md §4d). */
@ApiTags('conversations')
@RawResponse()
@Controller('agents/:agentId/conversations')
export class AttachmentsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly media: MediaAttachments,
  ) {}

  @Get(':conversationId/messages/:messageId/attachments/:index')
  @RequireScopes('conversations:read')
  @ApiOperation({
    summary: "A message's attachment: the customer's media, fetched from the channel's provider",
  })
  @ApiParam({ name: 'index', type: Number, description: 'The position in `attachments`' })
  @ApiOkResponse({
    description: "The media's bytes, with its content type",
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    headers: responseHeaders(200),
  })
  @ApiErrorResponse(404, 'not_found: unknown agent, conversation, message or attachment')
  @ApiErrorResponse(
    502,
    'internal_error: the provider failed, or the media is over META_MEDIA_MAX_BYTES',
  )
  async getMessageAttachment(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @IdParam('messageId') messageId: string,
    @Param('index') index: string,
    @Res() res: Response,
  ): Promise<void> {
    const conversation = await this.conversations.get(teamId, agentId, conversationId);
    const message = await this.conversations.getMessage(teamId, agentId, conversationId, messageId);
    if (!/^\d{1,3}$/.test(index)) {
      throw Errors.notFound('Attachment not found');
    }
    const media = await this.media.fetch(conversation, message, Number(index));
    res.status(200).setHeader('Content-Type', media.mimeType);
    res.setHeader('Cache-Control', 'private, no-store');
    if (media.size !== null) {
      res.setHeader('Content-Length', String(media.size));
    }
    // A body that passes the cap midway errors the stream: the connection is cut.
    await pipeline(media.body, res).catch(() => res.destroy());
  }
}
