import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { McpServerConfigureDto } from '../dto/mcp-server-configure.dto';
import {
  McpDiscoverResultDto,
  McpServerItemDto,
  McpTestResultDto,
} from '../dto/mcp-server-response.dto';
import { ToolResponseDto } from '../dto/tool-response.dto';
import { McpServersService } from './mcp-servers.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/mcp_server')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "The agent's MCP servers",
    message: 'MCP servers retrieved successfully',
    response: McpServerItemDto,
    shape: 'array',
  })
  listMcpServers(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<McpServerItemDto[]> {
    return this.servers.list(teamId, agentId);
  }

  @Post('configure')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Add an MCP server (then discover its tools)',
    message: 'MCP server configured successfully',
    response: McpServerItemDto,
    status: 201,
    idempotency: 'calls_out',
  })
  configureMcpServer(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: McpServerConfigureDto,
  ): Promise<McpServerItemDto> {
    return this.servers.configure(teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete an MCP server with its actions',
    message: 'MCP server deleted successfully',
    response: null,
  })
  deleteMcpServer(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<void> {
    return this.servers.delete(teamId, agentId, integrationId);
  }

  @Post(':integrationId/discover')
  @Endpoint({
    scope: 'agents:write',
    summary: "Sync the server's tools into the agent's actions",
    message: 'MCP tools discovered successfully',
    response: McpDiscoverResultDto,
    status: 200,
    errors: [400, 404, 409, 422, 502],
    idempotency: 'calls_out',
  })
  discoverMcpServerTools(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<McpDiscoverResultDto> {
    return this.servers.discover(teamId, agentId, integrationId);
  }

  @Post(':integrationId/test')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Try to connect and list tools; reports success or the error',
    message: 'MCP server tested',
    response: McpTestResultDto,
    status: 200,
    idempotency: 'calls_out',
  })
  testMcpServer(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<McpTestResultDto> {
    return this.servers.test(teamId, agentId, integrationId);
  }

  @Get(':integrationId/tools')
  @Endpoint({
    scope: 'agents:read',
    summary: "The server's tools as discovered",
    message: 'Tools retrieved successfully',
    response: ToolResponseDto,
    shape: 'array',
  })
  listMcpServerTools(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<ToolResponseDto[]> {
    return this.servers.listTools(teamId, agentId, integrationId);
  }
}
