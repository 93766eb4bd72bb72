import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<McpServerItemDto[]> {
    return this.servers.list(caller.teamId, agentId);
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: McpServerConfigureDto,
  ): Promise<McpServerItemDto> {
    return this.servers.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete an MCP server with its actions',
    message: 'MCP server deleted successfully',
    response: null,
  })
  async deleteMcpServer(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.servers.delete(caller.teamId, agentId, integrationId);
    return null;
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<McpDiscoverResultDto> {
    return this.servers.discover(caller.teamId, agentId, integrationId);
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<McpTestResultDto> {
    return this.servers.test(caller.teamId, agentId, integrationId);
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<ToolResponseDto[]> {
    return this.servers.listTools(caller.teamId, agentId, integrationId);
  }
}
