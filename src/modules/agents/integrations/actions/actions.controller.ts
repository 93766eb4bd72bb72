import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { ActionsService } from './actions.service';
import { ActionIdsDto } from '../dto/action-ids.dto';
import { ActionResponseDto, ActionsUpdatedDto } from '../dto/action-response.dto';

@ApiTags('actions')
@Controller('agents/:agentId/actions')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "The actions of all the agent's integrations",
    message: 'Actions retrieved successfully',
    response: ActionResponseDto,
    shape: 'array',
  })
  listActions(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
  ): Promise<ActionResponseDto[]> {
    return this.actions.list(caller.teamId, agentId);
  }

  @Post('enable')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Enable actions by id',
    message: 'Actions enabled successfully',
    response: ActionsUpdatedDto,
    status: 200,
  })
  async enableActions(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: ActionIdsDto,
  ): Promise<ActionsUpdatedDto> {
    return {
      updated_count: await this.actions.setEnabled(caller.teamId, agentId, body.action_ids, true),
    };
  }

  @Post('disable')
  @Endpoint({
    scope: 'agents:write',
    summary: 'Disable actions by id',
    message: 'Actions disabled successfully',
    response: ActionsUpdatedDto,
    status: 200,
  })
  async disableActions(
    @CurrentPrincipal() caller: Principal,
    @Param('agentId', ParseIdPipe) agentId: string,
    @Body() body: ActionIdsDto,
  ): Promise<ActionsUpdatedDto> {
    return {
      updated_count: await this.actions.setEnabled(caller.teamId, agentId, body.action_ids, false),
    };
  }
}
