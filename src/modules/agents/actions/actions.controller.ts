import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '@/common/http/api-docs.decorators';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import { ActionsService } from './actions.service';
import { ActionIdsDto, ActionResponseDto, ActionsUpdatedDto } from './dto/actions.dto';

@ApiTags('actions')
@Controller('agents/:agentId/actions')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @RequireScopes('agents:read')
  @ResponseMessage('Actions retrieved successfully')
  @ApiOperation({ summary: "The actions of all the agent's integrations" })
  @ApiEnvelope(ActionResponseDto, { array: true })
  @ApiErrors(404)
  list(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<ActionResponseDto[]> {
    return this.actions.list(caller.teamId, agentId);
  }

  @Post('enable')
  @HttpCode(200)
  @RequireScopes('agents:write')
  @ResponseMessage('Actions enabled successfully')
  @ApiOperation({ summary: 'Enable actions by id' })
  @ApiIdempotencyKey()
  @ApiEnvelope(ActionsUpdatedDto)
  @ApiErrors(400, 404, 409, 422)
  async enable(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: ActionIdsDto,
  ): Promise<ActionsUpdatedDto> {
    return {
      updated_count: await this.actions.setEnabled(caller.teamId, agentId, body.action_ids, true),
    };
  }

  @Post('disable')
  @HttpCode(200)
  @RequireScopes('agents:write')
  @ResponseMessage('Actions disabled successfully')
  @ApiOperation({ summary: 'Disable actions by id' })
  @ApiIdempotencyKey()
  @ApiEnvelope(ActionsUpdatedDto)
  @ApiErrors(400, 404, 409, 422)
  async disable(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: ActionIdsDto,
  ): Promise<ActionsUpdatedDto> {
    return {
      updated_count: await this.actions.setEnabled(caller.teamId, agentId, body.action_ids, false),
    };
  }
}
