import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentId } from '@/modules/agents/agent-id.decorator';
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
  listActions(@TeamId() teamId: string, @AgentId() agentId: string): Promise<ActionResponseDto[]> {
    return this.actions.list(teamId, agentId);
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
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: ActionIdsDto,
  ): Promise<ActionsUpdatedDto> {
    return {
      updated_count: await this.actions.setEnabled(teamId, agentId, body.action_ids, true),
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
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Body() body: ActionIdsDto,
  ): Promise<ActionsUpdatedDto> {
    return {
      updated_count: await this.actions.setEnabled(teamId, agentId, body.action_ids, false),
    };
  }
}
