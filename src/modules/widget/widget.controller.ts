import { ApiErrorResponse, BACKLOG_REFUSAL } from '@/common/http/api-docs.decorators';
import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { Page } from '@/common/pagination/page';
import { AgentsService } from '@/modules/agents/agents.service';
import type {
  AgentChannelEntity,
  WebchatConfig,
} from '@/modules/agents/entities/agent-channel.entity';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { CustomerViewService } from '@/modules/conversations/customer-view.service';
import {
  CustomerMessageDto,
  CustomerMessageWithAttachmentsDto,
  toCustomerMessage,
} from '@/modules/conversations/dto/customer-message.dto';
import {
  SessionCreateDto,
  SessionDto,
  StreamTicketCreateDto,
  WidgetConfigDto,
  WidgetMessageCreateDto,
  WidgetMessagesQueryDto,
} from './dto/widget.dto';
import { IssuedTicketDto } from '@/common/http/issued-ticket.dto';
import { VisitorsService } from './visitors.service';
import { WIDGET_API_PREFIX } from './widget-cors';
import { WidgetEndpoint } from './widget-endpoint.decorator';
import { WidgetChannel, whileConnected } from './widget-key.guard';
import { WidgetRateLimits } from './widget-rate-limits';
import { WidgetTickets } from './widget-tickets';
import type { WidgetVisitorEntity } from './entities/widget-visitor.entity';

/**
 * The web chat's public API (docs/api.md §7a), used by widget.js from the pages of the chat's
 * allowed origins. A visitor reaches its own conversation, in the customer's view, and nothing
 * else.
 */
// On the class: a controller without tags of its own gets one made from its name ("Widget") from
// @nestjs/swagger besides, and Swagger UI then shows each operation twice.
@ApiTags('widget')
@Public()
@Controller(WIDGET_API_PREFIX)
export class WidgetController {
  constructor(
    private readonly agents: AgentsService,
    private readonly visitors: VisitorsService,
    private readonly conversations: ConversationsService,
    private readonly customerView: CustomerViewService,
    private readonly tickets: WidgetTickets,
    private readonly rateLimits: WidgetRateLimits,
  ) {}

  @Get('config')
  @WidgetEndpoint({
    summary: 'What the widget shows: title, greeting, color',
    message: 'Widget configuration retrieved successfully',
    response: WidgetConfigDto,
  })
  async getWidgetConfig(@WidgetChannel() channel: AgentChannelEntity): Promise<WidgetConfigDto> {
    const config = channel.config as WebchatConfig;
    const agent = await whileConnected(() =>
      this.agents.requireOwned(channel.teamId, channel.agentId),
    );
    return {
      title: config.title ?? agent.name,
      greeting: config.greeting ?? null,
      color: config.color ?? null,
    };
  }

  @Post('sessions')
  @WidgetEndpoint({
    summary: "Start or resume the visitor's session: its token, and its conversation if any",
    message: 'Session started successfully',
    response: SessionDto,
    status: 201,
  })
  async startWidgetSession(
    @WidgetChannel() channel: AgentChannelEntity,
    @Body() input: SessionCreateDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionDto> {
    if (!input.visitor_token) {
      // Anyone can make visitors: new ones count against the address.
      await this.rateLimits.take(req, res);
    }
    return whileConnected(async () => {
      const { token, visitor } = await this.visitors.startSession(channel, input.visitor_token);
      const conversation = await this.conversationOf(visitor);
      return { visitor_token: token, conversation_id: conversation?.id ?? null };
    });
  }

  @Post('messages')
  @ApiErrorResponse(503, BACKLOG_REFUSAL)
  @WidgetEndpoint({
    summary: "Send the visitor's message (its conversation is created with the first one)",
    message: 'Message sent successfully',
    response: CustomerMessageWithAttachmentsDto,
    status: 201,
  })
  async sendWidgetMessage(
    @WidgetChannel() channel: AgentChannelEntity,
    @Body() input: WidgetMessageCreateDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CustomerMessageWithAttachmentsDto> {
    const visitor = await this.visitors.require(channel, input.visitor_token);
    await this.rateLimits.take(req, res, visitor.id);
    const post = () =>
      this.conversations.postFromChannelUser(
        channel.teamId,
        channel.agentId,
        {
          channelType: 'webchat',
          channelUserId: visitor.id,
          isTestChannel: false,
          username: null,
          channelId: channel.id,
        },
        input.message,
      );
    return toCustomerMessage(await whileConnected(post));
  }

  @Get('messages')
  @WidgetEndpoint({
    summary: "The visitor's conversation, oldest first, as the visitor sees it",
    message: 'Messages retrieved successfully',
    response: CustomerMessageWithAttachmentsDto,
    paginated: true,
  })
  async listWidgetMessages(
    @WidgetChannel() channel: AgentChannelEntity,
    @Query() query: WidgetMessagesQueryDto,
  ): Promise<Page<CustomerMessageDto>> {
    const visitor = await this.visitors.require(channel, query.visitor_token);
    const conversation = await this.conversationOf(visitor);
    if (!conversation) {
      if (query.after !== undefined) {
        throw Errors.validation(['after: must be the id of a message of this conversation']);
      }
      return Page.of([], 0, query.page, query.limit);
    }
    return whileConnected(() => this.customerView.messages(conversation, query.after, query));
  }

  @Post('stream-ticket')
  @WidgetEndpoint({
    summary: "A single-use ticket that opens the visitor's stream once",
    message: 'Stream ticket issued successfully',
    response: IssuedTicketDto,
    status: 201,
    errors: [404],
  })
  async issueWidgetStreamTicket(
    @WidgetChannel() channel: AgentChannelEntity,
    @Body() input: StreamTicketCreateDto,
  ): Promise<IssuedTicketDto> {
    const visitor = await this.visitors.require(channel, input.visitor_token);
    const conversation = await this.conversationOf(visitor);
    if (!conversation) {
      throw Errors.notFound('The visitor has no conversation yet: send a message first');
    }
    return this.tickets.issue({
      teamId: channel.teamId,
      agentId: channel.agentId,
      conversationId: conversation.id,
      visitorId: visitor.id,
    });
  }

  private conversationOf(visitor: WidgetVisitorEntity) {
    return this.customerView.conversationOf(visitor.teamId, visitor.agentId, 'webchat', visitor.id);
  }
}
