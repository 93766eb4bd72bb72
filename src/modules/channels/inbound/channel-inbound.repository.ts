import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import { ChannelInboundEntity, ChannelInboundSeenEntity } from '../entities/channel-inbound.entity';

/** Notifications waiting to be processed (a job each), and the provider ids already taken in. */
@Injectable()
export class ChannelInboundRepository {
  readonly jobs: JobTable<ChannelInboundEntity>;

  constructor(private readonly db: Database) {
    this.jobs = new JobTable(db, ChannelInboundEntity, {
      table: 'channel_inbound',
      due: (params, now) => `next_attempt_at <= ${params.add(now)}`,
      dueOrder: 'next_attempt_at',
      attempts: 'attempts',
    });
  }

  async insert(teamId: string, channelId: string, body: string): Promise<ChannelInboundEntity> {
    const now = new Date();
    const row: ChannelInboundEntity = {
      id: newId(),
      teamId,
      channelId,
      body,
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      leaseToken: null,
      createdAt: now,
    };
    await this.db.insert(ChannelInboundEntity, [row]);
    return row;
  }

  /** Records the provider's message id; false when the channel has taken it in already. */
  async firstTime(channelId: string, providerMessageId: string): Promise<boolean> {
    const inserted = await this.db.insert(
      ChannelInboundSeenEntity,
      [{ channelId, providerMessageId, createdAt: new Date() }],
      { orIgnore: true },
    );
    return inserted > 0;
  }

  /** Forgets up to `limit` message ids taken in before `cutoff`; how many it forgot. */
  async purgeSeen(cutoff: Date, limit: number): Promise<number> {
    const { changes } = await this.db.write(() =>
      this.db.execute(
        `DELETE FROM channel_inbound_seen WHERE (channel_id, provider_message_id) IN
           (SELECT channel_id, provider_message_id FROM channel_inbound_seen
            WHERE created_at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
    return changes;
  }
}
