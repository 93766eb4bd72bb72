import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '@/common/http/api-docs.decorators';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import { ToolResponseDto } from '../dto/custom-api.dto';
import {
  McpDiscoverResultDto,
  McpServerConfigureDto,
  McpServerItemDto,
  McpTestResultDto,
} from '../dto/mcp-server.dto';
import { McpServersService } from './mcp-servers.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/mcp_server')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Get()
  @RequireScopes('agents:read')
  @ResponseMessage('MCP servers retrieved successfully')
  @ApiOperation({ summary: "The agent's MCP servers" })
  @ApiEnvelope(McpServerItemDto, { array: true })
  @ApiErrors(404)
  list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<McpServerItemDto[]> {
    return this.servers.list(caller.teamId, agentId);
  }

  @Post('configure')
  @RequireScopes('agents:write')
  @ResponseMessage('MCP server configured successfully')
  @ApiOperation({ summary: 'Add an MCP server (then discover its tools)' })
  @ApiIdempotencyKey()
  @ApiEnvelope(McpServerItemDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  configure(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: McpServerConfigureDto,
  ): Promise<McpServerItemDto> {
    return this.servers.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @RequireScopes('agents:write')
  @ResponseMessage('MCP server deleted successfully')
  @ApiOperation({ summary: 'Delete an MCP server with its actions' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 404, 409, 422)
  async delete(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.servers.delete(caller.teamId, agentId, integrationId);
    return null;
  }

  @Post(':integrationId/discover')
  @HttpCode(200)
  @RequireScopes('agents:write')
  @ResponseMessage('MCP tools discovered successfully')
  @ApiOperation({ summary: "Sync the server's tools into the agent's actions" })
  @ApiIdempotencyKey()
  @ApiEnvelope(McpDiscoverResultDto)
  @ApiErrors(400, 404, 409, 422)
  discover(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<McpDiscoverResultDto> {
    return this.servers.discover(caller.teamId, agentId, integrationId);
  }

  @Post(':integrationId/test')
  @HttpCode(200)
  @RequireScopes('agents:write')
  @ResponseMessage('MCP server tested')
  @ApiOperation({ summary: 'Try to connect and list tools; reports success or the error' })
  @ApiIdempotencyKey()
  @ApiEnvelope(McpTestResultDto)
  @ApiErrors(400, 404, 409, 422)
  test(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<McpTestResultDto> {
    return this.servers.test(caller.teamId, agentId, integrationId);
  }

  @Get(':integrationId/tools')
  @RequireScopes('agents:read')
  @ResponseMessage('Tools retrieved successfully')
  @ApiOperation({ summary: "The server's tools as discovered" })
  @ApiEnvelope(ToolResponseDto, { array: true })
  @ApiErrors(404)
  listTools(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<ToolResponseDto[]> {
    return this.servers.listTools(caller.teamId, agentId, integrationId);
  }
}
