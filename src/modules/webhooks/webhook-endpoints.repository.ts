import { Injectable } from '@nestjs/common';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { WebhookListQueryDto } from './dto/webhook-list-query.dto';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';

export const WEBHOOK_ENDPOINT_LIST: ListTable = {
  from: 'webhook_endpoints endpoint',
  columns: 'endpoint.*',
  searchColumns: ['endpoint.url', 'endpoint.description'],
  sortColumns: {
    created_at: 'endpoint.created_at',
    updated_at: 'endpoint.updated_at',
    url: 'endpoint.url',
  },
  defaultSort: '-created_at',
  tieBreaker: 'endpoint.id',
};

const MARK_HEALTHY =
  'UPDATE webhook_endpoints SET failing_since = NULL ' +
  'WHERE team_id = $1 AND id = $2 AND failing_since IS NOT NULL';

const MARK_FAILING_SINCE =
  'UPDATE webhook_endpoints SET failing_since = $3 ' +
  'WHERE team_id = $1 AND id = $2 AND failing_since IS NULL';

@Injectable()
export class WebhookEndpointsRepository {
  private readonly lists: ListPages<WebhookEndpointEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, WebhookEndpointEntity, WEBHOOK_ENDPOINT_LIST);
  }

  async insert(endpoint: WebhookEndpointEntity): Promise<void> {
    await this.db.insert(WebhookEndpointEntity, [endpoint]);
  }

  findOwned(teamId: string, id: string): Promise<WebhookEndpointEntity | null> {
    return this.db.findOne(WebhookEndpointEntity, { teamId, id });
  }

  async list(teamId: string, query: WebhookListQueryDto): Promise<Page<WebhookEndpointEntity>> {
    const page = await this.lists.page({ where: 'endpoint.team_id = $1', params: [teamId] }, query);
    return Page.from(page, query);
  }

  /**
   * The ids of the team's enabled endpoints subscribed to `type` that existed at `createdBy`,
   * matched in the stored list of events. On PostgreSQL they are key-share-locked for the rest of
   * the transaction: an endpoint deleted meanwhile would otherwise make the deliveries written for
   * it fail their foreign key. A key share is all that needs, and unlike a share lock it does not
   * make the fan-out wait for an endpoint's update (rotate-secret, PATCH, its failure marks).
   */
  async subscribedTo(teamId: string, type: string, createdBy: Date): Promise<string[]> {
    const { rows } = await this.db.execute<{ id: string }>(
      `SELECT id FROM webhook_endpoints
       WHERE team_id = $1 AND is_enabled = $2 AND ${this.subscribes()} AND created_at <= $4` +
        this.db.dialect.lock('key share'),
      [teamId, true, JSON.stringify(type), createdBy],
    );
    return rows.map((row) => row.id);
  }

  /** Whether an enabled endpoint of the team subscribes to `type` (the event is worth writing). */
  async anySubscribedTo(teamId: string, type: string): Promise<boolean> {
    const { rows } = await this.db.execute(
      `SELECT 1 FROM webhook_endpoints
       WHERE team_id = $1 AND is_enabled = $2 AND ${this.subscribes()} LIMIT 1`,
      [teamId, true, JSON.stringify(type)],
    );
    return rows.length > 0;
  }

  /** The team's endpoints, enabled or not (the quota counts them all). */
  countOwned(teamId: string): Promise<number> {
    return this.db.count(WebhookEndpointEntity, { teamId });
  }

  /** `events` (a JSON list) holds the event type given as JSON in `$3`. */
  private subscribes(): string {
    return this.db.dialect.contains('events', '$3');
  }

  async update(
    teamId: string,
    id: string,
    changes: Changes<WebhookEndpointEntity>,
  ): Promise<boolean> {
    return (await this.db.update(WebhookEndpointEntity, { teamId, id }, changes)) > 0;
  }

  async delete(teamId: string, id: string): Promise<boolean> {
    return (await this.db.delete(WebhookEndpointEntity, { teamId, id })) > 0;
  }

  /** A 2xx came back: the endpoint is healthy again. */
  async markHealthy(teamId: string, id: string): Promise<void> {
    await this.db.write(() => this.db.execute(MARK_HEALTHY, [teamId, id]));
  }

  /**
   * Notes a failed attempt of a delivery created at `deliveryCreatedAt` (`failing_since` becomes
   * the creation of the first delivery that failed). The endpoint is turned off when it has been
   * failing for `failingForMs`, or when that delivery has just run out of retries (`exhausted`)
   * with nothing succeeding since it was created: its whole retry window failed. Two single
   * statements, so no lock is held on the endpoint that changes write deliveries for.
   */
  async markFailing(
    teamId: string,
    id: string,
    deliveryCreatedAt: Date,
    failingForMs: number,
    exhausted: boolean,
    reason: string,
  ): Promise<boolean> {
    const now = new Date();
    await this.db.write(() => this.db.execute(MARK_FAILING_SINCE, [teamId, id, deliveryCreatedAt]));
    const params = new SqlParams();
    const failingLongEnough = `failing_since <= ${params.add(new Date(now.getTime() - failingForMs))}`;
    const sql =
      `UPDATE webhook_endpoints SET is_enabled = ${params.add(false)}, ` +
      `disabled_reason = ${params.add(reason)}, updated_at = ${params.add(now)} ` +
      `WHERE team_id = ${params.add(teamId)} AND id = ${params.add(id)} ` +
      `AND is_enabled = ${params.add(true)} AND ` +
      (exhausted
        ? `(${failingLongEnough} OR failing_since <= ${params.add(deliveryCreatedAt)})`
        : failingLongEnough);
    const { changes } = await this.db.write(() => this.db.execute(sql, params.values));
    return changes > 0;
  }
}
