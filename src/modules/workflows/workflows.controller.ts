import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '@/common/http/api-docs.decorators';
import { ParseIdPipe } from '@/common/http/parse-id.pipe';
import { Principal } from '@/common/http/principal';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { Page } from '@/common/pagination/page';
import { CurrentPrincipal } from '@/modules/auth/current-principal.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';
import { WorkflowCloneDto } from './dto/workflow-clone.dto';
import { WorkflowCreateDto } from './dto/workflow-create.dto';
import { WorkflowListQueryDto } from './dto/workflow-list-query.dto';
import { toWorkflowResponse, WorkflowResponseDto } from './dto/workflow-response.dto';
import { WorkflowUpdateDto } from './dto/workflow-update.dto';
import { WorkflowsService } from './workflows.service';

@ApiTags('workflows')
@Controller('workflows')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Get()
  @RequireScopes('workflows:read')
  @ResponseMessage('Workflows retrieved successfully')
  @ApiOperation({ summary: 'List own and public workflows' })
  @ApiEnvelope(WorkflowResponseDto, { paginated: true })
  @ApiErrors(400)
  async list(
    @CurrentPrincipal() caller: Principal,
    @Query() query: WorkflowListQueryDto,
  ): Promise<Page<WorkflowResponseDto>> {
    const page = await this.workflows.list(caller.teamId, query);
    return page.map((workflow) => toWorkflowResponse(workflow, caller.teamId));
  }

  @Post()
  @RequireScopes('workflows:write')
  @ResponseMessage('Workflow created successfully')
  @ApiOperation({ summary: 'Create a workflow' })
  @ApiIdempotencyKey()
  @ApiEnvelope(WorkflowResponseDto, { status: 201 })
  @ApiErrors(400, 409, 422)
  async create(
    @CurrentPrincipal() caller: Principal,
    @Body() body: WorkflowCreateDto,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.workflows.create(caller.teamId, body), caller.teamId);
  }

  @Post('clone')
  @RequireScopes('workflows:write')
  @ResponseMessage('Workflow cloned successfully')
  @ApiOperation({ summary: 'Copy an own or public workflow into a private one' })
  @ApiIdempotencyKey()
  @ApiEnvelope(WorkflowResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  async clone(
    @CurrentPrincipal() caller: Principal,
    @Body() body: WorkflowCloneDto,
  ): Promise<WorkflowResponseDto> {
    const copy = await this.workflows.clone(caller.teamId, body.source_workflow_id);
    return toWorkflowResponse(copy, caller.teamId);
  }

  @Get(':id')
  @RequireScopes('workflows:read')
  @ResponseMessage('Workflow retrieved successfully')
  @ApiOperation({ summary: 'Retrieve an own or public workflow' })
  @ApiEnvelope(WorkflowResponseDto)
  @ApiErrors(404)
  async get(
    @CurrentPrincipal() caller: Principal,
    @Param('id', ParseIdPipe) id: string,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.workflows.get(caller.teamId, id), caller.teamId);
  }

  @Patch(':id')
  @RequireScopes('workflows:write')
  @ResponseMessage('Workflow updated successfully')
  @ApiOperation({ summary: 'Change an own workflow' })
  @ApiIdempotencyKey()
  @ApiEnvelope(WorkflowResponseDto)
  @ApiErrors(400, 403, 404, 409, 422)
  async update(
    @CurrentPrincipal() caller: Principal,
    @Param('id', ParseIdPipe) id: string,
    @Body() body: WorkflowUpdateDto,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.workflows.update(caller.teamId, id, body), caller.teamId);
  }

  @Delete(':id')
  @RequireScopes('workflows:write')
  @ResponseMessage('Workflow deleted successfully')
  @ApiOperation({ summary: 'Delete an own workflow that no agent uses' })
  @ApiIdempotencyKey()
  @ApiEnvelope(null)
  @ApiErrors(400, 403, 404, 409, 422)
  async delete(
    @CurrentPrincipal() caller: Principal,
    @Param('id', ParseIdPipe) id: string,
  ): Promise<null> {
    await this.workflows.delete(caller.teamId, id);
    return null;
  }
}
