import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { PipedreamConfigureDto } from '../dto/pipedream-configure.dto';
import { PipedreamConfigureResultDto, PipedreamItemDto } from '../dto/pipedream-response.dto';
import { PipedreamService } from './pipedream.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/pipedream')
export class PipedreamController {
  constructor(private readonly pipedream: PipedreamService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "The agent's Pipedream apps",
    message: 'Pipedream apps retrieved successfully',
    response: PipedreamItemDto,
    shape: 'array',
  })
  listPipedreamIntegrations(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<PipedreamItemDto[]> {
    return this.pipedream.list(teamId, agentId);
  }

  @Post('configure')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Add a Pipedream app; the team connects it through the onboarding URL',
    message: 'Pipedream app configured successfully',
    response: PipedreamConfigureResultDto,
    status: 201,
  })
  configurePipedreamIntegration(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: PipedreamConfigureDto,
  ): Promise<PipedreamConfigureResultDto> {
    return this.pipedream.configure(teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Disconnect a Pipedream app',
    message: 'Pipedream app disconnected successfully',
    response: null,
  })
  disconnectPipedreamIntegration(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<void> {
    return this.pipedream.disconnect(teamId, agentId, integrationId);
  }
}
