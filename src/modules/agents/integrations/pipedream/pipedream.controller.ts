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
  PipedreamConfigureDto,
  PipedreamConfigureResultDto,
  PipedreamItemDto,
} from '../dto/pipedream.dto';
import { PipedreamService } from './pipedream.service';

@ApiTags('integrations')
@Controller('agents/:agentId/integrations/pipedream')
export class PipedreamController {
  constructor(private readonly pipedream: PipedreamService) {}

  @Get()
  @RequireScopes('agents:read')
  @ResponseMessage('Pipedream apps retrieved successfully')
  @ApiOperation({ summary: "The agent's Pipedream apps" })
  @ApiEnvelope(PipedreamItemDto, { array: true })
  @ApiErrors(404)
  list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<PipedreamItemDto[]> {
    return this.pipedream.list(caller.teamId, agentId);
  }

  @Post('configure')
  @RequireScopes('agents:write')
  @ResponseMessage('Pipedream app configured successfully')
  @ApiOperation({ summary: 'Add a Pipedream app; the team connects it through the onboarding URL' })
  @ApiIdempotencyKey()
  @ApiEnvelope(PipedreamConfigureResultDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  configure(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: PipedreamConfigureDto,
  ): Promise<PipedreamConfigureResultDto> {
    return this.pipedream.configure(caller.teamId, agentId, body);
  }

  @Delete(':integrationId')
  @RequireScopes('agents:write')
  @ResponseMessage('Pipedream app disconnected successfully')
  @ApiOperation({ summary: 'Disconnect a Pipedream app' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 404, 409, 422)
  async disconnect(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Param('integrationId', ParseIdPipe) integrationId: string,
  ): Promise<null> {
    await this.pipedream.disconnect(caller.teamId, agentId, integrationId);
    return null;
  }
}
