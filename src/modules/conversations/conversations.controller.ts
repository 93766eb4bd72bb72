import { ApiErrorResponse, BACKLOG_REFUSAL } from '@/common/http/api-docs.decorators';
import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { Page } from '@/common/pagination/page';
import { CurrentPrincipal, TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { ConversationsService } from './conversations.service';
import {
  AiStatusDto,
  AiStatusResponseDto,
  ConversationDetailResponseDto,
  ConversationListQueryDto,
  ConversationResponseDto,
  toConversationDetail,
  toConversationResponse,
} from './dto/conversation.dto';
import {
  ChannelMessageCreateDto,
  MessageCreateDto,
  MessageListQueryDto,
  MessageResponseDto,
  toMessageResponse,
} from './dto/message.dto';
import { IssuedTicketDto } from '@/common/http/issued-ticket.dto';
import { StreamTicketsService } from './stream/stream-tickets.service';

@ApiTags('conversations')
@Controller('agents/:agentId/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly tickets: StreamTicketsService,
  ) {}

  @Get()
  @Endpoint({
    scope: 'conversations:read',
    summary: "List the agent's conversations",
    message: 'Conversations retrieved successfully',
    response: ConversationResponseDto,
    shape: 'paginated',
    errors: [400, 404],
  })
  async listAgentConversations(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Query() query: ConversationListQueryDto,
  ): Promise<Page<ConversationResponseDto>> {
    return (await this.conversations.list(teamId, agentId, query)).map(toConversationResponse);
  }

  @Post('messages')
  @ApiErrorResponse(503, BACKLOG_REFUSAL)
  @Endpoint({
    scope: 'conversations:write',
    summary:
      "Send a message into a conversation, or into a channel user's conversation (created if new)",
    message: 'Message sent successfully',
    response: MessageResponseDto,
    status: 201,
  })
  async postChannelMessage(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: ChannelMessageCreateDto,
  ): Promise<MessageResponseDto> {
    return toMessageResponse(await this.conversations.postByChannel(teamId, agentId, body));
  }

  @Get(':conversationId')
  @Endpoint({
    scope: 'conversations:read',
    summary: 'One conversation, with the contact details known',
    message: 'Conversation retrieved successfully',
    response: ConversationDetailResponseDto,
  })
  async getConversation(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
  ): Promise<ConversationDetailResponseDto> {
    const { conversation, contact, usage } = await this.conversations.getDetail(
      teamId,
      agentId,
      conversationId,
    );
    return toConversationDetail(conversation, contact, usage);
  }

  @Patch(':conversationId/ai-status')
  @Endpoint({
    scope: 'conversations:write',
    summary: 'Pause or resume AI replies in a conversation',
    message: 'AI status updated successfully',
    response: AiStatusResponseDto,
  })
  async setConversationAiStatus(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @Body() body: AiStatusDto,
  ): Promise<AiStatusResponseDto> {
    const conversation = await this.conversations.setAiPaused(
      teamId,
      agentId,
      conversationId,
      body.is_ai_chat_paused,
    );
    return { is_ai_chat_paused: conversation.isAiChatPaused };
  }

  @Get(':conversationId/messages')
  @Endpoint({
    scope: 'conversations:read',
    summary: 'The messages of a conversation, oldest first',
    message: 'Messages retrieved successfully',
    response: MessageResponseDto,
    shape: 'paginated',
    errors: [400, 404],
  })
  async listConversationMessages(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @Query() query: MessageListQueryDto,
  ): Promise<Page<MessageResponseDto>> {
    return (await this.conversations.listMessages(teamId, agentId, conversationId, query)).map(
      toMessageResponse,
    );
  }

  @Post(':conversationId/messages')
  @ApiErrorResponse(503, BACKLOG_REFUSAL)
  @Endpoint({
    scope: 'conversations:write',
    summary: 'Send a message into the conversation (a user message gets an AI reply)',
    message: 'Message sent successfully',
    response: MessageResponseDto,
    status: 201,
  })
  async postConversationMessage(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @Body() body: MessageCreateDto,
  ): Promise<MessageResponseDto> {
    return toMessageResponse(
      await this.conversations.postToConversation(teamId, agentId, conversationId, body),
    );
  }

  @Get(':conversationId/messages/:messageId')
  @Endpoint({
    scope: 'conversations:read',
    summary: 'One message',
    message: 'Message retrieved successfully',
    response: MessageResponseDto,
  })
  async getConversationMessage(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
    @IdParam('messageId') messageId: string,
  ): Promise<MessageResponseDto> {
    return toMessageResponse(
      await this.conversations.getMessage(teamId, agentId, conversationId, messageId),
    );
  }

  @Post(':conversationId/stream-ticket')
  @Endpoint({
    scope: 'conversations:read',
    summary: 'A single-use ticket that opens the message stream once',
    message: 'Stream ticket issued successfully',
    response: IssuedTicketDto,
    status: 201,
    errors: [404],
    idempotency: 'never_stored',
  })
  async issueStreamTicket(
    @CurrentPrincipal() caller: Principal,
    @AgentId() agentId: string,
    @IdParam('conversationId') conversationId: string,
  ): Promise<IssuedTicketDto> {
    await this.conversations.get(caller.teamId, agentId, conversationId);
    return this.tickets.issue(caller, agentId, conversationId);
  }
}
