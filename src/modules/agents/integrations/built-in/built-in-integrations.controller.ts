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
  BuiltInConfigureDto,
  BuiltInConnectorRowDto,
  ConfigureResultDto,
} from '../dto/built-in.dto';
import { BuiltInIntegrationsService } from './built-in-integrations.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/bimpeai')
export class BuiltInIntegrationsController {
  constructor(private readonly builtIn: BuiltInIntegrationsService) {}

  @Get()
  @RequireScopes('agents:read')
  @ResponseMessage('Integrations retrieved successfully')
  @ApiOperation({ summary: 'The built-in connectors, one row per type' })
  @ApiEnvelope(BuiltInConnectorRowDto, { array: true })
  @ApiErrors(404)
  list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<BuiltInConnectorRowDto[]> {
    return this.builtIn.list(caller.teamId, agentId);
  }

  @Post('configure')
  @RequireScopes('agents:write')
  @ResponseMessage('Integration configured successfully')
  @ApiOperation({ summary: 'Configure a built-in connector; credentials connect it at once' })
  @ApiIdempotencyKey()
  @ApiEnvelope(ConfigureResultDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  configure(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: BuiltInConfigureDto,
  ): Promise<ConfigureResultDto> {
    return this.builtIn.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @RequireScopes('agents:write')
  @ResponseMessage('Integration disconnected successfully')
  @ApiOperation({ summary: 'Disconnect a built-in connector and remove its actions' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 404, 409, 422)
  async disconnect(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.builtIn.disconnect(caller.teamId, agentId, integrationId);
    return null;
  }
}
