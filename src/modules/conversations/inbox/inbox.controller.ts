import { Body, Controller, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { ConversationUpdateDto } from '../dto/conversation-update.dto';
import { ConversationDetailResponseDto, toConversationDetail } from '../dto/conversation.dto';
import { ConversationsService } from '../conversations.service';
import { ConversationInbox } from './conversation-inbox';

@ApiTags('conversations')
@Controller('agents/:agentId/conversations')
export class InboxController {
  constructor(
    private readonly inbox: ConversationInbox,
    private readonly conversations: ConversationsService,
  ) {}

  @Patch(':conversationId')
  @Endpoint({
    scope: 'inbox:write',
    summary: "Change the conversation's status, snooze, assignee, labels or priority",
    message: 'Conversation updated successfully',
    response: ConversationDetailResponseDto,
  })
  async updateConversation(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @Body() body: ConversationUpdateDto,
  ): Promise<ConversationDetailResponseDto> {
    const conversation = await this.inbox.update(teamId, agentId, conversationId, body);
    const detail = await this.conversations.detailOf(conversation);
    return toConversationDetail(detail.conversation, detail.contact, detail.usage);
  }
}
