import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { ConversationsService } from './conversations.service';
import { NoteCreateDto } from './dto/message-author.dto';
import { MessageResponseDto, toMessageResponse } from './dto/message.dto';

/** Private notes: staff write to each other in a conversation, out of the customer's sight. */
@ApiTags('conversations')
@Controller('agents/:agentId/conversations')
export class NotesController {
  constructor(private readonly conversations: ConversationsService) {}

  @Post(':conversationId/notes')
  @Endpoint({
    scope: 'inbox:write',
    summary: 'Add a private note: listed and streamed to staff, never sent to the customer',
    message: 'Note added successfully',
    response: MessageResponseDto,
    status: 201,
  })
  async addConversationNote(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @Body() body: NoteCreateDto,
  ): Promise<MessageResponseDto> {
    return toMessageResponse(
      await this.conversations.addNote(teamId, agentId, conversationId, body),
    );
  }
}
