import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { BuiltInConfigureDto } from '../dto/built-in-configure.dto';
import { BuiltInConnectorRowDto, ConfigureResultDto } from '../dto/built-in-response.dto';
import { BuiltInIntegrationsService } from './built-in-integrations.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/bimpeai')
export class BuiltInIntegrationsController {
  constructor(private readonly builtIn: BuiltInIntegrationsService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: 'The built-in connectors, one row per type',
    message: 'Integrations retrieved successfully',
    response: BuiltInConnectorRowDto,
    shape: 'array',
  })
  listBuiltInIntegrations(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<BuiltInConnectorRowDto[]> {
    return this.builtIn.list(teamId, agentId);
  }

  @Post('configure')
  @Endpoint({
    scope: 'agents:write',
    summary:
      'Configure a built-in connector; credentials are checked with the provider, then connect it',
    message: 'Integration configured successfully',
    response: ConfigureResultDto,
    status: 201,
    errors: [400, 404, 409, 422, 502],
    idempotency: 'calls_out',
  })
  configureBuiltInIntegration(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: BuiltInConfigureDto,
  ): Promise<ConfigureResultDto> {
    return this.builtIn.configure(teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Disconnect a built-in connector and remove its actions',
    message: 'Integration disconnected successfully',
    response: null,
  })
  disconnectBuiltInIntegration(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('integrationId') integrationId: string,
  ): Promise<void> {
    return this.builtIn.disconnect(teamId, agentId, integrationId);
  }
}
