import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { Page } from '@/common/pagination/page';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { CurrentPrincipal, TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { ActionRunsService } from './action-runs.service';
import {
  ActionRunListQueryDto,
  ActionRunRejectDto,
  ActionRunResponseDto,
  toActionRunResponse,
} from './dto/action-run.dto';

@ApiTags('action runs')
@Controller('agents/:agentId/action-runs')
export class ActionRunsController {
  constructor(private readonly runs: ActionRunsService) {}

  @Get()
  @Endpoint({
    scope: 'agents:read',
    summary: "The agent's action runs",
    message: 'Action runs retrieved successfully',
    response: ActionRunResponseDto,
    shape: 'paginated',
    errors: [400, 404],
  })
  async listActionRuns(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @Query() query: ActionRunListQueryDto,
  ): Promise<Page<ActionRunResponseDto>> {
    return (await this.runs.list(teamId, agentId, query)).map(toActionRunResponse);
  }

  @Get(':runId')
  @Endpoint({
    scope: 'agents:read',
    summary: 'One action run',
    message: 'Action run retrieved successfully',
    response: ActionRunResponseDto,
  })
  async getActionRun(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('runId') runId: string,
  ): Promise<ActionRunResponseDto> {
    return toActionRunResponse(await this.runs.get(teamId, agentId, runId));
  }

  @Post(':runId/approve')
  @Endpoint({
    scope: 'inbox:write',
    summary: 'Approve an action run that waits for approval: the action runs, the reply continues',
    message: 'Action run approved',
    response: ActionRunResponseDto,
    status: 200,
    errors: [400, 404, 409, 422],
    idempotency: 'calls_out',
  })
  async approveActionRun(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('runId') runId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ActionRunResponseDto> {
    return toActionRunResponse(await this.runs.approve(teamId, agentId, runId, principal.keyId));
  }

  @Post(':runId/reject')
  @Endpoint({
    scope: 'inbox:write',
    summary: 'Reject an action run that waits for approval: it never runs',
    message: 'Action run rejected',
    response: ActionRunResponseDto,
    status: 200,
    errors: [400, 404, 409, 422],
  })
  async rejectActionRun(
    @TeamId() teamId: string,
    @AgentId() agentId: string,
    @IdParam('runId') runId: string,
    @CurrentPrincipal() principal: Principal,
    @Body() body: ActionRunRejectDto,
  ): Promise<ActionRunResponseDto> {
    return toActionRunResponse(
      await this.runs.reject(teamId, agentId, runId, principal.keyId, body.reason ?? null),
    );
  }
}
