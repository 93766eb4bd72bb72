import { Controller, Get, NotFoundException, Param, Req, UseGuards } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { AuthedRequest, BearerGuard, RequireScope } from './bearer.guard';
import { Workflow } from './entities';
import { WorkflowResponse } from './workflow.response';

class WorkflowParams {
  @IsUUID('all')
  id: string;
}

@Controller('workflows')
@UseGuards(BearerGuard)
export class WorkflowsController {
  constructor(@InjectRepository(Workflow) private readonly workflows: Repository<Workflow>) {}

  @Get(':id')
  @RequireScope('workflows:read')
  async findOne(
    @Param() params: WorkflowParams,
    @Req() req: AuthedRequest,
  ): Promise<{ message: string; data: WorkflowResponse }> {
    const teamId = req.apiKey.teamId;
    const id = params.id.toLowerCase();
    const workflow = await this.workflows.findOne({
      where: [
        { id, teamId },
        { id, visibility: 'public' },
      ],
    });
    if (!workflow) {
      throw new NotFoundException('Workflow not found');
    }
    return {
      message: 'Workflow retrieved successfully',
      data: new WorkflowResponse(workflow, teamId),
    };
  }
}
