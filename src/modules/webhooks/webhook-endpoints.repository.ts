import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { WebhookListQueryDto } from './dto/webhook-list-query.dto';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';

@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly db: Database) {}

  async insert(endpoint: WebhookEndpointEntity): Promise<void> {
    await this.db.write(() => this.db.manager.insert(WebhookEndpointEntity, endpoint));
  }

  findOwned(teamId: string, id: string): Promise<WebhookEndpointEntity | null> {
    return this.db.manager.findOneBy(WebhookEndpointEntity, { teamId, id });
  }

  list(teamId: string, query: WebhookListQueryDto): Promise<Page<WebhookEndpointEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(WebhookEndpointEntity, 'endpoint')
      .where('endpoint.team_id = :teamId', { teamId });
    return paginate(builder, query, {
      searchColumns: ['endpoint.url', 'endpoint.description'],
      sortColumns: {
        created_at: 'endpoint.created_at',
        updated_at: 'endpoint.updated_at',
        url: 'endpoint.url',
      },
      defaultSort: '-created_at',
      tieBreaker: 'endpoint.id',
    });
  }

  /**
   * The ids of the team's enabled endpoints subscribed to `type` that existed at `createdBy`,
   * matched in the stored list of events. On PostgreSQL they are key-share-locked for the rest of
   * the transaction: an endpoint deleted meanwhile would otherwise make the deliveries written for
   * it fail their foreign key. A key share is all that needs, and unlike a share lock it does not
   * make the fan-out wait for an endpoint's update (rotate-secret, PATCH, its failure marks).
   */
  async subscribedTo(teamId: string, type: string, createdBy: Date): Promise<string[]> {
    const postgres = this.db.kind === 'postgres';
    const { rows } = await this.db.execute<{ id: string }>(
      `SELECT id FROM webhook_endpoints
       WHERE team_id = $1 AND is_enabled = $2 AND ${this.subscribes()} AND created_at <= $4
       ${postgres ? 'FOR KEY SHARE' : ''}`,
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
  async countOwned(teamId: string): Promise<number> {
    const { rows } = await this.db.execute<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE team_id = $1',
      [teamId],
    );
    return Number(rows[0].n);
  }

  /** `events` (a JSON list) holds the event type given as JSON in `$3`. */
  private subscribes(): string {
    return `${this.db.kind === 'postgres' ? 'strpos' : 'instr'}(events, $3) > 0`;
  }

  async update(
    teamId: string,
    id: string,
    changes: QueryDeepPartialEntity<WebhookEndpointEntity>,
  ): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.update(WebhookEndpointEntity, { teamId, id }, changes),
    );
    return (result.affected ?? 0) > 0;
  }

  async delete(teamId: string, id: string): Promise<boolean> {
    const result = await this.db.write(() =>
      this.db.manager.delete(WebhookEndpointEntity, { teamId, id }),
    );
    return (result.affected ?? 0) > 0;
  }

  /** A 2xx came back: the endpoint is healthy again. */
  async markHealthy(teamId: string, id: string): Promise<void> {
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set({ failingSince: null })
        .where('team_id = :teamId AND id = :id AND failing_since IS NOT NULL', { teamId, id })
        .execute(),
    );
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
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set({ failingSince: deliveryCreatedAt })
        .where('team_id = :teamId AND id = :id AND failing_since IS NULL', { teamId, id })
        .execute(),
    );
    const disabled = await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set({ isEnabled: false, disabledReason: reason, updatedAt: now })
        .where('team_id = :teamId AND id = :id AND is_enabled = :enabled', {
          teamId,
          id,
          enabled: true,
        })
        .andWhere(
          exhausted
            ? '(failing_since <= :cutoff OR failing_since <= :deliveryCreatedAt)'
            : 'failing_since <= :cutoff',
          { cutoff: new Date(now.getTime() - failingForMs), deliveryCreatedAt },
        )
        .execute(),
    );
    return (disabled.affected ?? 0) > 0;
  }
}
