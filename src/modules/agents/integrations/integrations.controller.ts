import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '@/common/http/api-docs.decorators';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import { IntegrationListItemDto } from './dto/integration-summary.dto';
import { IntegrationsService } from './integrations.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @RequireScopes('agents:read')
  @ResponseMessage('Integrations retrieved successfully')
  @ApiOperation({
    summary: 'Every configured integration of every family, with its fields and actions',
  })
  @ApiEnvelope(IntegrationListItemDto, { array: true })
  @ApiErrors(404)
  list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<IntegrationListItemDto[]> {
    return this.integrations.describeAll(caller.teamId, agentId);
  }
}
