import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<CustomApiItemDto[]> {
    return this.customApis.list(caller.teamId, agentId);
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: CustomApiConfigureDto,
  ): Promise<CustomApiItemDto> {
    return this.customApis.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete a custom API with its tools',
    message: 'Custom API deleted successfully',
    response: null,
  })
  async deleteCustomApi(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.customApis.delete(caller.teamId, agentId, integrationId);
    return null;
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<ToolResponseDto[]> {
    return this.customApis.listTools(caller.teamId, agentId, integrationId);
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
    @Body() body: ToolCreateDto,
  ): Promise<ToolResponseDto> {
    return this.customApis.addTool(caller.teamId, agentId, integrationId, body);
  }

  @Delete(':integrationId/tools/:toolId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Delete a tool',
    message: 'Tool deleted successfully',
    response: null,
  })
  async deleteCustomApiTool(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
    @Param('toolId', ParseIdPipe) toolId: string,
  ): Promise<null> {
    await this.customApis.deleteTool(caller.teamId, agentId, integrationId, toolId);
    return null;
  }
}
