import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<PipedreamItemDto[]> {
    return this.pipedream.list(caller.teamId, agentId);
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: PipedreamConfigureDto,
  ): Promise<PipedreamConfigureResultDto> {
    return this.pipedream.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Disconnect a Pipedream app',
    message: 'Pipedream app disconnected successfully',
    response: null,
  })
  async disconnectPipedreamIntegration(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.pipedream.disconnect(caller.teamId, agentId, integrationId);
    return null;
  }
}
