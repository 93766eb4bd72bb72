import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import { ChannelSendEntity } from '../entities/channel-send.entity';

/** The sends a worker leases: due while pending and their next attempt has come. */
@Injectable()
export class ChannelSendsRepository {
  readonly jobs: JobTable<ChannelSendEntity>;

  constructor(private readonly db: Database) {
    this.jobs = new JobTable(db, ChannelSendEntity, {
      table: 'channel_sends',
      due: (params, now) => `status = 'pending' AND next_attempt_at <= ${params.add(now)}`,
      dueOrder: 'next_attempt_at',
      attempts: 'attempts',
    });
  }

  async insert(send: ChannelSendEntity): Promise<void> {
    await this.db.insert(ChannelSendEntity, [send]);
  }

  findByProviderId(
    channelId: string,
    providerMessageId: string,
  ): Promise<ChannelSendEntity | null> {
    return this.db.findOne(ChannelSendEntity, { channelId, providerMessageId });
  }
}
