import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
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
    @TeamId() teamId: string,
    @AgentId() agentId: string,
  ): Promise<IntegrationListItemDto[]> {
    return this.integrations.describeAll(teamId, agentId);
  }
}
