import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { CustomApiConfigureDto } from '../dto/custom-api-configure.dto';
import { CustomApiItemDto } from '../dto/custom-api-response.dto';
import { ToolCreateDto } from '../dto/tool-create.dto';
import { ToolResponseDto } from '../dto/tool-response.dto';
import { CustomApiService } from './custom-api.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/custom_api')
export class CustomApiController {
  constructor(private readonly customApis: CustomApiService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "The agent's custom APIs",
    message: 'Custom APIs retrieved successfully',
    response: CustomApiItemDto,
    shape: 'array',
  })
  listCustomApis(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<CustomApiItemDto[]> {
    return this.customApis.list(teamId, agentId);
  }

  @Post('configure')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Add a custom API; its auth settings are stored encrypted',
    message: 'Custom API configured successfully',
    response: CustomApiItemDto,
    status: 201,
    idempotency: 'calls_out',
  })
  configureCustomApi(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: CustomApiConfigureDto,
  ): Promise<CustomApiItemDto> {
    return this.customApis.configure(teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete a custom API with its tools',
    message: 'Custom API deleted successfully',
    response: null,
  })
  deleteCustomApi(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<void> {
    return this.customApis.delete(teamId, agentId, integrationId);
  }

  @Get(':integrationId/tools')
  @Endpoint({
    scope: 'agents:read',
    summary: "A custom API's tools",
    message: 'Tools retrieved successfully',
    response: ToolResponseDto,
    shape: 'array',
  })
  listCustomApiTools(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<ToolResponseDto[]> {
    return this.customApis.listTools(teamId, agentId, integrationId);
  }

  @Post(':integrationId/tools')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Add a tool (an HTTP call the agent can make) to a custom API',
    message: 'Tool created successfully',
    response: ToolResponseDto,
    status: 201,
    idempotency: 'calls_out',
  })
  addCustomApiTool(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
    @Body() body: ToolCreateDto,
  ): Promise<ToolResponseDto> {
    return this.customApis.addTool(teamId, agentId, integrationId, body);
  }

  @Delete(':integrationId/tools/:toolId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete a tool',
    message: 'Tool deleted successfully',
    response: null,
  })
  deleteCustomApiTool(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
    @IdParam('toolId') toolId: string,
  ): Promise<void> {
    return this.customApis.deleteTool(teamId, agentId, integrationId, toolId);
  }
}
