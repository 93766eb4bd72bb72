import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { Page } from '@/common/pagination/page';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
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
  @Endpoint({
    scope: 'workflows:read',
    summary: 'List own and public workflows',
    message: 'Workflows retrieved successfully',
    response: WorkflowResponseDto,
    shape: 'paginated',
    errors: [400],
  })
  async listWorkflows(
    @TeamId() teamId: string,
    @Query() query: WorkflowListQueryDto,
  ): Promise<Page<WorkflowResponseDto>> {
    const page = await this.workflows.list(teamId, query);
    return page.map((workflow) => toWorkflowResponse(workflow, teamId));
  }

  @Post()
  @Endpoint({
    scope: 'workflows:write',
    summary: 'Create a workflow',
    message: 'Workflow created successfully',
    response: WorkflowResponseDto,
    status: 201,
    errors: [400, 409, 422],
  })
  async createWorkflow(
    @TeamId() teamId: string,
    @Body() body: WorkflowCreateDto,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.workflows.create(teamId, body), teamId);
  }

  @Post('clone')
  @Endpoint({
    scope: 'workflows:write',
    summary: 'Copy an own or public workflow into a private one',
    message: 'Workflow cloned successfully',
    response: WorkflowResponseDto,
    status: 201,
  })
  async cloneWorkflow(
    @TeamId() teamId: string,
    @Body() body: WorkflowCloneDto,
  ): Promise<WorkflowResponseDto> {
    const copy = await this.workflows.clone(teamId, body.source_workflow_id);
    return toWorkflowResponse(copy, teamId);
  }

  @Get(':id')
  @Endpoint({
    scope: 'workflows:read',
    summary: 'Retrieve an own or public workflow',
    message: 'Workflow retrieved successfully',
    response: WorkflowResponseDto,
  })
  async getWorkflow(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.workflows.get(teamId, id), teamId);
  }

  @Patch(':id')
  @Endpoint({
    scope: 'workflows:write',
    summary: 'Change an own workflow',
    message: 'Workflow updated successfully',
    response: WorkflowResponseDto,
    errors: [400, 403, 404, 409, 422],
  })
  async updateWorkflow(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
    @Body() body: WorkflowUpdateDto,
  ): Promise<WorkflowResponseDto> {
    return toWorkflowResponse(await this.workflows.update(teamId, id, body), teamId);
  }

  @Delete(':id')
  @Endpoint({
    scope: 'workflows:write',
    summary: "Delete an own workflow that none of the team's agents uses",
    message: 'Workflow deleted successfully',
    response: null,
    errors: [400, 403, 404, 409, 422],
  })
  deleteWorkflow(@TeamId() teamId: string, @IdParam('id') id: string): Promise<void> {
    return this.workflows.delete(teamId, id);
  }
}
