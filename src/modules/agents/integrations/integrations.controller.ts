import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { IntegrationListItemDto } from './dto/integration-response.dto';
import { IntegrationsService } from './integrations.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: 'Every configured integration of every family, with its fields and actions',
    message: 'Integrations retrieved successfully',
    response: IntegrationListItemDto,
    shape: 'array',
  })
  listIntegrations(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<IntegrationListItemDto[]> {
    return this.integrations.describeAll(caller.teamId, agentId);
  }
}
