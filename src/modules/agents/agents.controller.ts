import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Page } from '@/common/pagination/page';
import { Principal } from '@/common/http/principal';
import { OpenToAgentLimitedKeys } from '@/modules/auth/agent-limit.decorator';
import { CurrentPrincipal, TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { FlowDto } from '@/modules/workflows/dto/workflow-parts.dto';
import { WorkflowResponseDto } from '@/modules/workflows/dto/workflow-response.dto';
import { AgentId } from './agent-id.decorator';
import { AgentsService } from './agents.service';
import { AgentTestCodeService } from './deployment/agent-test-code.service';
import { AgentCreateDto } from './dto/agent-create.dto';
import { AgentListQueryDto } from './dto/agent-list-query.dto';
import {
  AgentLiveStatusResponseDto,
  toAgentLiveStatusResponse,
} from './dto/agent-live-status-response.dto';
import { AgentLiveStatusDto } from './dto/agent-live-status-update.dto';
import {
  AgentResponseDto,
  AgentWithWorkflowResponseDto,
  toAgentResponse,
} from './dto/agent-response.dto';
import { AgentTestCodeResponseDto } from './dto/agent-test-code-response.dto';
import { AgentUpdateDto } from './dto/agent-update.dto';
import { ChannelResponseDto, toChannelResponse } from './dto/channel-response.dto';

@ApiTags('agents')
@Controller('agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly testCodes: AgentTestCodeService,
  ) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "List the team's agents",
    message: 'Agents retrieved successfully',
    response: AgentResponseDto,
    shape: 'paginated',
    errors: [400],
  })
  @OpenToAgentLimitedKeys()
  async listAgents(
    @CurrentPrincipal() caller: Principal,
    @Query() query: AgentListQueryDto,
  ): Promise<Page<AgentResponseDto>> {
    return (await this.agents.list(caller.teamId, query, caller.agentIds)).map(toAgentResponse);
  }

  @Post()
  @Endpoint({
    scope: 'agents:write',
    summary: 'Create an agent on an own or public workflow',
    message: 'Agent created successfully',
    response: AgentWithWorkflowResponseDto,
    status: 201,
    errors: [400, 403, 404, 409, 422],
  })
  async createAgent(
    @TeamId() teamId: string,
    @Body() body: AgentCreateDto,
  ): Promise<AgentWithWorkflowResponseDto> {
    const { agent, workflow } = await this.agents.create(teamId, body);
    return { ...toAgentResponse(agent), workflow };
  }

  @Patch(':agentId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Change an agent',
    message: 'Agent updated successfully',
    response: AgentResponseDto,
  })
  async updateAgent(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: AgentUpdateDto,
  ): Promise<AgentResponseDto> {
    return toAgentResponse(await this.agents.update(teamId, agentId, body));
  }

  @Delete(':agentId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete an agent with everything under it',
    message: 'Agent deleted successfully',
    response: null,
  })
  deleteAgent(@TeamId() teamId: string, @AgentId() agentId: string): Promise<void> {
    return this.agents.delete(teamId, agentId);
  }

  @Patch(':agentId/live-status')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Move the agent between development, live and paused',
    message: 'Agent status updated successfully',
    response: AgentLiveStatusResponseDto,
  })
  async setAgentLiveStatus(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: AgentLiveStatusDto,
  ): Promise<AgentLiveStatusResponseDto> {
    return toAgentLiveStatusResponse(await this.agents.setLiveStatus(teamId, agentId, body));
  }

  @Get(':agentId/deployment/agent-test-code')
  @Endpoint({
    scope: 'agents:read',
    summary: 'How to reach the agent under test on each channel',
    message: 'Agent test code retrieved successfully',
    response: AgentTestCodeResponseDto,
  })
  async getAgentTestCode(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<AgentTestCodeResponseDto> {
    const agent = await this.agents.requireOwned(teamId, agentId);
    return this.testCodes.describe(agent);
  }

  @Get(':agentId/channels')
  @Endpoint({
    scope: 'agents:read',
    summary: "The agent's channels, one per type",
    message: 'Channels retrieved successfully',
    response: ChannelResponseDto,
    shape: 'array',
  })
  async listAgentChannels(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<ChannelResponseDto[]> {
    return (await this.agents.channelsOf(teamId, agentId)).map(toChannelResponse);
  }

  @Get(':agentId/flows')
  @Endpoint({
    scope: 'agents:read',
    summary: "The conversation flows of the agent's workflow",
    message: 'Flows retrieved successfully',
    response: FlowDto,
    shape: 'array',
  })
  listAgentFlows(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<WorkflowResponseDto['flows']> {
    return this.agents.flowsOf(teamId, agentId);
  }
}
