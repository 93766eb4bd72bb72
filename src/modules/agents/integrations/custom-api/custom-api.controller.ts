import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '@/common/http/api-docs.decorators';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import {
  CustomApiConfigureDto,
  CustomApiItemDto,
  ToolCreateDto,
  ToolResponseDto,
} from '../dto/custom-api.dto';
import { CustomApiService } from './custom-api.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/custom_api')
export class CustomApiController {
  constructor(private readonly customApis: CustomApiService) {}

  @Get()
  @RequireScopes('agents:read')
  @ResponseMessage('Custom APIs retrieved successfully')
  @ApiOperation({ summary: "The agent's custom APIs" })
  @ApiEnvelope(CustomApiItemDto, { array: true })
  @ApiErrors(404)
  list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<CustomApiItemDto[]> {
    return this.customApis.list(caller.teamId, agentId);
  }

  @Post('configure')
  @RequireScopes('agents:write')
  @ResponseMessage('Custom API configured successfully')
  @ApiOperation({ summary: 'Add a custom API; its auth settings are stored encrypted' })
  @ApiIdempotencyKey()
  @ApiEnvelope(CustomApiItemDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  configure(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: CustomApiConfigureDto,
  ): Promise<CustomApiItemDto> {
    return this.customApis.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @RequireScopes('agents:write')
  @ResponseMessage('Custom API deleted successfully')
  @ApiOperation({ summary: 'Delete a custom API with its tools' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 404, 409, 422)
  async delete(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.customApis.delete(caller.teamId, agentId, integrationId);
    return null;
  }

  @Get(':integrationId/tools')
  @RequireScopes('agents:read')
  @ResponseMessage('Tools retrieved successfully')
  @ApiOperation({ summary: "A custom API's tools" })
  @ApiEnvelope(ToolResponseDto, { array: true })
  @ApiErrors(404)
  listTools(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<ToolResponseDto[]> {
    return this.customApis.listTools(caller.teamId, agentId, integrationId);
  }

  @Post(':integrationId/tools')
  @RequireScopes('agents:write')
  @ResponseMessage('Tool created successfully')
  @ApiOperation({ summary: 'Add a tool (an HTTP call the agent can make) to a custom API' })
  @ApiIdempotencyKey()
  @ApiEnvelope(ToolResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  addTool(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
    @Body() body: ToolCreateDto,
  ): Promise<ToolResponseDto> {
    return this.customApis.addTool(caller.teamId, agentId, integrationId, body);
  }

  @Delete(':integrationId/tools/:toolId')
  @RequireScopes('agents:write')
  @ResponseMessage('Tool deleted successfully')
  @ApiOperation({ summary: 'Delete a tool' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 404, 409, 422)
  async deleteTool(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
    @Param('toolId', ParseIdPipe) toolId: string,
  ): Promise<null> {
    await this.customApis.deleteTool(caller.teamId, agentId, integrationId, toolId);
    return null;
  }
}
