import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { LIMITS } from '@/common/validation/limits';
import { isForeignKeyViolation } from '@/database/errors';
import { WorkflowCreateDto } from './dto/workflow-create.dto';
import { WorkflowListQueryDto } from './dto/workflow-list-query.dto';
import { WorkflowUpdateDto } from './dto/workflow-update.dto';
import { WorkflowEntity } from './entities/workflow.entity';
import { newWorkflow, workflowChanges } from './workflow-fields';
import { WorkflowsRepository } from './workflows.repository';

const COPY_SUFFIX = ' (copy)';
const NOT_FOUND = 'Workflow not found';

@Injectable()
export class WorkflowsService {
  constructor(private readonly workflows: WorkflowsRepository) {}

  list(teamId: string, query: WorkflowListQueryDto): Promise<Page<WorkflowEntity>> {
    return this.workflows.list(teamId, query);
  }

  /** An own or public workflow; anything else is not found. */
  async get(teamId: string, id: string): Promise<WorkflowEntity> {
    const workflow = await this.workflows.findAccessible(teamId, id);
    if (!workflow) {
      throw Errors.notFound(NOT_FOUND);
    }
    return workflow;
  }

  /**
   * The workflow an agent runs on, whoever owns it. Only for an agent the caller already owns:
   * the agent's workflow stays readable to it even if its owner later makes it private.
   */
  findForAgent(workflowId: string): Promise<WorkflowEntity | null> {
    return this.workflows.findById(workflowId);
  }

  async create(teamId: string, input: WorkflowCreateDto): Promise<WorkflowEntity> {
    const workflow = newWorkflow(teamId, input);
    await this.workflows.insert(workflow);
    return workflow;
  }

  async clone(teamId: string, sourceId: string): Promise<WorkflowEntity> {
    const source = await this.get(teamId, sourceId);
    const now = new Date();
    const copy: WorkflowEntity = {
      ...source,
      id: newId(),
      teamId,
      name: source.name.slice(0, LIMITS.name - COPY_SUFFIX.length) + COPY_SUFFIX,
      visibility: 'private',
      createdAt: now,
      updatedAt: now,
    };
    await this.workflows.insert(copy);
    return copy;
  }

  async update(teamId: string, id: string, input: WorkflowUpdateDto): Promise<WorkflowEntity> {
    await this.requireOwned(teamId, id);
    const changes = { ...workflowChanges(input), updatedAt: new Date() };
    if (!(await this.workflows.update(teamId, id, changes))) {
      throw Errors.notFound(NOT_FOUND);
    }
    return this.get(teamId, id);
  }

  async delete(teamId: string, id: string): Promise<void> {
    await this.requireOwned(teamId, id);
    try {
      if (!(await this.workflows.delete(teamId, id))) {
        throw Errors.notFound(NOT_FOUND);
      }
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw Errors.conflict('The workflow is used by agents; move or delete them first');
      }
      throw error;
    }
  }

  /** Another team's public workflow can be read but not changed (403); a private one is 404. */
  private async requireOwned(teamId: string, id: string): Promise<WorkflowEntity> {
    const workflow = await this.get(teamId, id);
    if (workflow.teamId !== teamId) {
      throw Errors.forbidden('Only the owning team can change this workflow');
    }
    return workflow;
  }
}
