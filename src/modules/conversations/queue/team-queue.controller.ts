import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@/common/http/principal';
import { Page } from '@/common/pagination/page';
import { OpenToAgentLimitedKeys } from '@/modules/auth/agent-limit.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { ConversationScope } from '../conversation-list';
import { ConversationsRepository } from '../conversations.repository';
import { ConversationCountsDto, ConversationFiltersDto } from '../dto/conversation-filters.dto';
import {
  ConversationListQueryDto,
  ConversationResponseDto,
  toConversationResponse,
} from '../dto/conversation.dto';

/** The caller's conversations: every agent of the team, or only a limited key's agents. */
function scopeOf(caller: Principal): ConversationScope {
  return { teamId: caller.teamId, agentIds: caller.agentIds };
}

/** The team queue: conversations across agents, and how many are in each state. */
@ApiTags('conversations')
@Controller('conversations')
export class TeamQueueController {
  constructor(private readonly conversations: ConversationsRepository) {}

  @Get()
  @Endpoint({
    scope: 'conversations:read',
    summary: "List the team's conversations across agents (a limited key: its agents')",
    message: 'Conversations retrieved successfully',
    response: ConversationResponseDto,
    shape: 'paginated',
    errors: [400],
  })
  @OpenToAgentLimitedKeys()
  async listTeamConversations(
    @CurrentPrincipal() caller: Principal,
    @Query() query: ConversationListQueryDto,
  ): Promise<Page<ConversationResponseDto>> {
    return (await this.conversations.list(scopeOf(caller), query)).map(toConversationResponse);
  }

  @Get('counts')
  @Endpoint({
    scope: 'conversations:read',
    summary:
      'How many of the filtered conversations are in each status, need attention, have no one',
    message: 'Conversation counts retrieved successfully',
    response: ConversationCountsDto,
    errors: [400],
  })
  @OpenToAgentLimitedKeys()
  countConversations(
    @CurrentPrincipal() caller: Principal,
    @Query() filters: ConversationFiltersDto,
  ): Promise<ConversationCountsDto> {
    return this.conversations.counts(scopeOf(caller), filters);
  }
}
