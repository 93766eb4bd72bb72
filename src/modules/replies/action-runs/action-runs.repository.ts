import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { ActionRunListQueryDto } from './dto/action-run.dto';
import { ActionRunEntity, ActionRunStatus } from './entities/action-run.entity';

/** Rows from before leases: running longer than any call can take (a tool's up to 300 s). */
const UNLEASED_STALE_MS = 310_000;

const RUN_LIST: ListTable = {
  from: 'action_runs run',
  columns: 'run.*',
  searchColumns: ['run.action_name'],
  sortColumns: { created_at: 'run.created_at' },
  defaultSort: '-created_at',
  tieBreaker: 'run.id',
};

/**
 * Action runs. A run is `running` under a lease held by a token (see `JobTable`): its caller
 * renews it during the call and settles it through the token; once the lease has run out, the
 * run is due to be settled as interrupted by whoever claims it.
 */
@Injectable()
export class ActionRunsRepository {
  readonly jobs: JobTable<ActionRunEntity>;
  private readonly lists: ListPages<ActionRunEntity>;

  constructor(
    private readonly db: Database,
    config: AppConfig,
  ) {
    const unleasedStaleMs = Math.max(config.outbound.timeoutMs, UNLEASED_STALE_MS);
    this.jobs = new JobTable(db, ActionRunEntity, {
      table: 'action_runs',
      due: (params, now) =>
        `status = ${params.add('running')} AND (lease_until IS NOT NULL ` +
        `OR updated_at < ${params.add(new Date(now.getTime() - unleasedStaleMs))})`,
      dueOrder: 'created_at',
    });
    this.lists = new ListPages(db, ActionRunEntity, RUN_LIST);
  }

  findOwned(teamId: string, agentId: string, id: string): Promise<ActionRunEntity | null> {
    return this.db.findOne(ActionRunEntity, { teamId, agentId, id });
  }

  async list(
    teamId: string,
    agentId: string,
    query: ActionRunListQueryDto,
  ): Promise<Page<ActionRunEntity>> {
    const params = new SqlParams();
    const conditions = [
      `run.team_id = ${params.add(teamId)}`,
      `run.agent_id = ${params.add(agentId)}`,
    ];
    if (query.status) {
      conditions.push(`run.status = ${params.add(query.status)}`);
    }
    if (query.conversation_id) {
      conditions.push(`run.conversation_id = ${params.add(query.conversation_id)}`);
    }
    const filter = { where: conditions.join(' AND '), params: params.values };
    return Page.from(await this.lists.page(filter, query), query);
  }

  /** The runs a reply to `messageId` already started: a retried reply reuses them. */
  forMessage(teamId: string, messageId: string): Promise<ActionRunEntity[]> {
    return this.db.find(
      ActionRunEntity,
      { teamId, messageId },
      { orderBy: { createdAt: 'ASC', id: 'ASC' } },
    );
  }

  /** The agent's runs of `actionIds` that wait for approval. */
  pendingOf(teamId: string, agentId: string, actionIds: string[]): Promise<ActionRunEntity[]> {
    return this.db.find(
      ActionRunEntity,
      { teamId, agentId, actionId: actionIds, status: 'pending_approval' },
      { orderBy: { createdAt: 'ASC', id: 'ASC' } },
    );
  }

  async insert(run: ActionRunEntity): Promise<void> {
    await this.db.insert(ActionRunEntity, [run]);
  }

  /** Applies `changes` to the run if its status is one of `from`; whether it was. */
  async moveFrom(
    teamId: string,
    id: string,
    from: ActionRunStatus[],
    changes: Changes<ActionRunEntity>,
  ): Promise<boolean> {
    const moved = await this.db.update(
      ActionRunEntity,
      { teamId, id, status: from },
      { ...changes, updatedAt: new Date() },
    );
    return moved > 0;
  }

  /**
   * Makes every running run due at once: at start in embedded mode, where no other process can
   * be calling one, whatever was left running was cut off by the stop.
   */
  async expireAllLeases(): Promise<void> {
    await this.db.write(() =>
      this.db.execute(
        'UPDATE action_runs SET lease_until = $1, lease_token = NULL WHERE status = $2',
        [new Date(0), 'running'],
      ),
    );
  }
}
