import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { JobTable } from '@/database/jobs/job-table';
import {
  TestChannelBindingEntity,
  TestNumberInboundEntity,
  TestNumberSeenEntity,
} from '../entities/test-number.entity';

/** Who a sender on the shared test number reaches: the bound agent and its team. */
export type TestBinding = Pick<TestChannelBindingEntity, 'teamId' | 'agentId'>;

/**
 * The shared test number's notifications waiting to be processed (a job each, of no team), the
 * provider ids already taken in, and its senders' bindings. Nothing here is a team's until a
 * binding names the team; the binding is found by the sender alone, as the test code was.
 */
@Injectable()
export class TestNumberRepository {
  readonly jobs: JobTable<TestNumberInboundEntity>;

  constructor(private readonly db: Database) {
    this.jobs = new JobTable(db, TestNumberInboundEntity, {
      table: 'test_number_inbound',
      due: (params, now) => `next_attempt_at <= ${params.add(now)}`,
      dueOrder: 'next_attempt_at',
      attempts: 'attempts',
      teamColumn: null,
    });
  }

  async insert(body: string): Promise<TestNumberInboundEntity> {
    const now = new Date();
    const row: TestNumberInboundEntity = {
      id: newId(),
      body,
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      leaseToken: null,
      createdAt: now,
    };
    await this.db.insert(TestNumberInboundEntity, [row]);
    return row;
  }

  /** Records the provider's message id; false when the test number has taken it in already. */
  async firstTime(providerMessageId: string): Promise<boolean> {
    const inserted = await this.db.insert(
      TestNumberSeenEntity,
      [{ providerMessageId, createdAt: new Date() }],
      { orIgnore: true },
    );
    return inserted > 0;
  }

  /** Forgets up to `limit` message ids taken in before `cutoff`; how many it forgot. */
  async purgeSeen(cutoff: Date, limit: number): Promise<number> {
    const { changes } = await this.db.write(() =>
      this.db.execute(
        `DELETE FROM test_number_inbound_seen WHERE provider_message_id IN
           (SELECT provider_message_id FROM test_number_inbound_seen
            WHERE created_at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
    return changes;
  }

  bindingOf(channelUserId: string): Promise<TestBinding | null> {
    return this.db.findOne(TestChannelBindingEntity, { channelUserId });
  }

  /** Binds the sender to the agent, replacing the agent they were bound to. */
  async bind(channelUserId: string, { teamId, agentId }: TestBinding): Promise<void> {
    const now = new Date();
    const inserted = await this.db.insert(
      TestChannelBindingEntity,
      [{ channelUserId, teamId, agentId, createdAt: now, updatedAt: now }],
      { orIgnore: true },
    );
    if (inserted === 0) {
      await this.db.update(
        TestChannelBindingEntity,
        { channelUserId },
        { teamId, agentId, updatedAt: now },
      );
    }
  }
}
