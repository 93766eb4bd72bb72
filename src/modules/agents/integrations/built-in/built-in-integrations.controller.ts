import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
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
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<BuiltInConnectorRowDto[]> {
    return this.builtIn.list(caller.teamId, agentId);
  }

  @Post('configure')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Configure a built-in connector; credentials connect it at once',
    message: 'Integration configured successfully',
    response: ConfigureResultDto,
    status: 201,
  })
  configureBuiltInIntegration(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: BuiltInConfigureDto,
  ): Promise<ConfigureResultDto> {
    return this.builtIn.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Disconnect a built-in connector and remove its actions',
    message: 'Integration disconnected successfully',
    response: null,
  })
  async disconnectBuiltInIntegration(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.builtIn.disconnect(caller.teamId, agentId, integrationId);
    return null;
  }
}
