import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { LIMITS } from '@/common/validation/limits';
import { Database } from '@/database/database.service';
import { isForeignKeyViolation } from '@/database/errors';
import { ModelSettingsService } from '@/modules/model-settings/model-settings.service';
import { WorkflowCreateDto } from './dto/workflow-create.dto';
import { WorkflowListQueryDto } from './dto/workflow-list-query.dto';
import { WorkflowUpdateDto } from './dto/workflow-update.dto';
import { WorkflowEntity } from './entities/workflow.entity';
import { WorkflowUsersRegistry } from './workflow-users.service';
import { newWorkflow, workflowChanges } from './workflow-fields';

/** What other modules read of a workflow's rules and flows. */
export { isActiveFlow, triggerPhrases } from './workflow-rules';
import { WorkflowsRepository } from './workflows.repository';

const COPY_SUFFIX = ' (copy)';
const NOT_FOUND = 'Workflow not found';

@Injectable()
export class WorkflowsService {
  constructor(
    private readonly db: Database,
    private readonly workflows: WorkflowsRepository,
    private readonly users: WorkflowUsersRegistry,
    private readonly modelSettings: ModelSettingsService,
  ) {}

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

  /** The workflow an agent of the team runs on: always own or public, else null. */
  findForAgent(teamId: string, workflowId: string): Promise<WorkflowEntity | null> {
    return this.workflows.findAccessible(teamId, workflowId);
  }

  /**
   * An own or public workflow an agent is about to be put on, locked until the caller's
   * transaction ends: its owner cannot make it private or delete it meanwhile, so the agent never
   * ends up on another team's private workflow.
   */
  async holdForAgent(teamId: string, id: string): Promise<WorkflowEntity> {
    await this.db.lockRow('workflows', id);
    return this.get(teamId, id);
  }

  async create(teamId: string, input: WorkflowCreateDto): Promise<WorkflowEntity> {
    await this.modelSettings.assertModelAllowed(teamId, input.prompt_config);
    const workflow = newWorkflow(teamId, input);
    await this.workflows.insert(workflow);
    return workflow;
  }

  async clone(teamId: string, sourceId: string): Promise<WorkflowEntity> {
    const source = await this.get(teamId, sourceId);
    // The copy is the copying team's: its allowed models apply, not the source team's.
    await this.modelSettings.assertModelAllowed(teamId, source.promptConfig);
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
    const changes = { ...workflowChanges(input), updatedAt: new Date() };
    await this.modelSettings.assertModelAllowed(teamId, input.prompt_config);
    await this.db.transaction(async () => {
      await this.db.lockRow('workflows', id);
      const before = await this.requireOwned(teamId, id);
      if ((changes.visibility ?? before.visibility) === 'private') {
        await this.handOverToOtherTeams(before);
      }
      if (!(await this.workflows.update(teamId, id, changes))) {
        throw Errors.notFound(NOT_FOUND);
      }
    });
    return this.get(teamId, id);
  }

  async delete(teamId: string, id: string): Promise<void> {
    try {
      await this.db.transaction(async () => {
        await this.db.lockRow('workflows', id);
        await this.handOverToOtherTeams(await this.requireOwned(teamId, id));
        if (!(await this.workflows.delete(teamId, id))) {
          throw Errors.notFound(NOT_FOUND);
        }
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw Errors.conflict('The workflow is used by agents; move or delete them first');
      }
      throw error;
    }
  }

  /**
   * The owner is taking the workflow away from other teams (making it private or deleting it):
   * each team whose agents run on it gets a private copy of it as it stands, and its agents move
   * onto that copy, so they keep working and never see what the owner writes next.
   */
  private async handOverToOtherTeams(workflow: WorkflowEntity): Promise<void> {
    for (const teamId of await this.users.teamsOn(workflow.id, workflow.teamId)) {
      const now = new Date();
      const copy: WorkflowEntity = {
        ...workflow,
        id: newId(),
        teamId,
        visibility: 'private',
        createdAt: now,
        updatedAt: now,
      };
      await this.workflows.insert(copy);
      await this.users.move(teamId, workflow.id, copy.id);
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
