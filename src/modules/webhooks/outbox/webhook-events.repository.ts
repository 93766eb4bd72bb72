import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import { WebhookEventEntity } from '../entities/webhook-event.entity';

/** Events of the outbox. An event not yet fanned out to its endpoints is a job. */
@Injectable()
export class WebhookEventsRepository {
  readonly fanouts: JobTable<WebhookEventEntity>;

  constructor(private readonly db: Database) {
    this.fanouts = new JobTable(db, WebhookEventEntity, {
      table: 'webhook_events',
      due: (params, now) => `fanned_out_at IS NULL AND created_at <= ${params.add(now)}`,
      dueOrder: 'created_at',
    });
  }

  /** Joins the caller's transaction: the event commits or rolls back with the change it reports. */
  async insert(event: WebhookEventEntity): Promise<void> {
    await this.db.insert(WebhookEventEntity, [event]);
  }

  find(teamId: string, id: string): Promise<WebhookEventEntity | null> {
    return this.db.entity(
      WebhookEventEntity,
      'SELECT * FROM webhook_events WHERE team_id = $1 AND id = $2',
      [teamId, id],
    );
  }

  /** Deletes up to `limit` events fanned out before `cutoff` whose deliveries are all gone. */
  async purgeDelivered(cutoff: Date, limit: number): Promise<number> {
    const { changes } = await this.db.write(() =>
      this.db.execute(
        `DELETE FROM webhook_events WHERE id IN
           (SELECT id FROM webhook_events
            WHERE fanned_out_at < $1
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = webhook_events.id)
            LIMIT $2)`,
        [cutoff, limit],
      ),
    );
    return changes;
  }
}
