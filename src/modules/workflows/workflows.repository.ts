import { Injectable } from '@nestjs/common';
import { Brackets, SelectQueryBuilder } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { WorkflowListQueryDto, WorkflowScope } from './dto/workflow-list-query.dto';
import { WorkflowEntity } from './entities/workflow.entity';

const SORT_COLUMNS = {
  name: 'workflow.name',
  category: 'workflow.category',
  created_at: 'workflow.created_at',
  updated_at: 'workflow.updated_at',
};

const ACCESSIBLE_BY_ID =
  "SELECT * FROM workflows WHERE id = $1 AND (team_id = $2 OR visibility = 'public')";

/** Workflows as one team sees them: its own, plus every team's public ones where allowed. */
@Injectable()
export class WorkflowsRepository {
  constructor(private readonly db: Database) {}

  private query(): SelectQueryBuilder<WorkflowEntity> {
    return this.db.manager.createQueryBuilder(WorkflowEntity, 'workflow');
  }

  private visibleTo(teamId: string, scope: WorkflowScope): SelectQueryBuilder<WorkflowEntity> {
    const query = this.query();
    switch (scope) {
      case 'owned':
        return query.where('workflow.team_id = :teamId', { teamId });
      case 'public':
        return query.where("workflow.visibility = 'public'");
      case 'accessible':
        return query.where(
          new Brackets((where) =>
            where
              .where('workflow.team_id = :teamId', { teamId })
              .orWhere("workflow.visibility = 'public'"),
          ),
        );
    }
  }

  /** Own or public. */
  findAccessible(teamId: string, id: string): Promise<WorkflowEntity | null> {
    return this.db.entity(WorkflowEntity, ACCESSIBLE_BY_ID, [id, teamId]);
  }

  list(teamId: string, list: WorkflowListQueryDto): Promise<Page<WorkflowEntity>> {
    return paginate(this.visibleTo(teamId, list.scope ?? 'accessible'), list, {
      searchColumns: ['workflow.name', 'workflow.description', 'workflow.category'],
      searchArrayColumns: ['workflow.tags'],
      sortColumns: SORT_COLUMNS,
      defaultSort: '-created_at',
      tieBreaker: 'workflow.id',
    });
  }

  async insert(workflow: WorkflowEntity): Promise<void> {
    await this.db.write(() =>
      this.db.manager.insert(WorkflowEntity, workflow as QueryDeepPartialEntity<WorkflowEntity>),
    );
  }

  /** Applies `changes` to a workflow the team owns; false when it owns no such workflow. */
  async update(teamId: string, id: string, changes: Partial<WorkflowEntity>): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.update(
        WorkflowEntity,
        { id, teamId },
        changes as QueryDeepPartialEntity<WorkflowEntity>,
      ),
    );
    return (result.affected ?? 0) > 0;
  }

  async delete(teamId: string, id: string): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.delete(WorkflowEntity, { id, teamId }),
    );
    return (result.affected ?? 0) > 0;
  }
}
