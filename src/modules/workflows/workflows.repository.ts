import { Injectable } from '@nestjs/common';
import { ListFilter, ListPages, ListTable } from '@/database/sql/list-pages';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { WorkflowListQueryDto, WorkflowScope } from './dto/workflow-list-query.dto';
import { WorkflowEntity } from './entities/workflow.entity';

const ACCESSIBLE_BY_ID =
  "SELECT * FROM workflows WHERE id = $1 AND (team_id = $2 OR visibility = 'public')";

export const WORKFLOW_LIST: ListTable = {
  from: 'workflows workflow',
  columns: 'workflow.*',
  searchColumns: ['workflow.name', 'workflow.description', 'workflow.category'],
  searchArrayColumns: ['workflow.tags'],
  sortColumns: {
    name: 'workflow.name',
    category: 'workflow.category',
    created_at: 'workflow.created_at',
    updated_at: 'workflow.updated_at',
  },
  defaultSort: '-created_at',
  tieBreaker: 'workflow.id',
};

/** The workflows a scope holds for `teamId`. */
function visibleTo(teamId: string, scope: WorkflowScope): ListFilter {
  switch (scope) {
    case 'owned':
      return { where: 'workflow.team_id = $1', params: [teamId] };
    case 'public':
      return { where: "workflow.visibility = 'public'", params: [] };
    case 'accessible':
      return {
        where: "(workflow.team_id = $1 OR workflow.visibility = 'public')",
        params: [teamId],
      };
  }
}

/** Workflows as one team sees them: its own, plus every team's public ones where allowed. */
@Injectable()
export class WorkflowsRepository {
  private readonly lists: ListPages<WorkflowEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, WorkflowEntity, WORKFLOW_LIST);
  }

  /** Own or public. */
  findAccessible(teamId: string, id: string): Promise<WorkflowEntity | null> {
    return this.db.entity(WorkflowEntity, ACCESSIBLE_BY_ID, [id, teamId]);
  }

  async list(teamId: string, list: WorkflowListQueryDto): Promise<Page<WorkflowEntity>> {
    return Page.from(
      await this.lists.page(visibleTo(teamId, list.scope ?? 'accessible'), list),
      list,
    );
  }

  async insert(workflow: WorkflowEntity): Promise<void> {
    await this.db.insert(WorkflowEntity, [workflow]);
  }

  /** Applies `changes` to a workflow the team owns; false when it owns no such workflow. */
  async update(teamId: string, id: string, changes: Partial<WorkflowEntity>): Promise<boolean> {
    return (await this.db.update(WorkflowEntity, { id, teamId }, changes)) > 0;
  }

  async delete(teamId: string, id: string): Promise<boolean> {
    return (await this.db.delete(WorkflowEntity, { id, teamId })) > 0;
  }
}
