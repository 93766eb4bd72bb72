import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { AgentsService } from '@/modules/agents/agents.service';
import { ProviderChannels, TEST_NUMBER_CHANNEL_ID } from '@/modules/agents/provider-channels.service';
import { ChannelOutbox } from '@/modules/conversations/channel-outbox.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { TestNumberInboundEntity } from '../entities/test-number.entity';
import { contentOf } from '../inbound/inbound-content';
import { InboundMessage, parseWhatsAppNotification } from '../meta/webhook-payloads';
import { TestBinding, TestNumberRepository } from './test-number.repository';

const CONCURRENCY = 4;
const LEASE_MS = 30_000;
/** A notification that fails this often (the database away each time) is given up, logged. */
const MAX_ATTEMPTS = 10;
const TEST_NUMBER_QUEUE = 'test-number';

/**
 * What a sender reads after a test code: a confirmation, not the agent's answer to the code (which
 * is no question, and would otherwise hand the test conversation off as unanswerable).
 */
export function boundNotice(agentName: string): string {
  return `You are now testing ${agentName}. Your messages here go to this agent until you send another test code.`;
}

/** The test number's jobs belong to no team: the fair queue serves them as one line of their own. */
export function testNumberJob(id: string): QueuedJob {
  return { id, teamId: TEST_NUMBER_QUEUE };
}

/**
 * Processes the shared test number's acknowledged notifications (docs/api.md §4d, the test code).
 * A text that is an agent's test code binds its sender to that agent: it is stored in the agent's
 * test conversation with them and answered with a confirmation (boundNotice). Each later message
 * of a bound sender goes there too and is answered as any message is, the replies sent back from
 * the test number. A sender bound to no
 * agent reaches no team: their messages are dropped, counted in the log without their text.
 * Once per provider message id, however often Meta redelivers it.
 */
@Injectable()
export class TestNumberInboundWorker extends JobWorker<QueuedJob, TestNumberInboundEntity> {
  protected readonly logger = new Logger(TestNumberInboundWorker.name);

  constructor(
    db: Database,
    private readonly repository: TestNumberRepository,
    private readonly agents: AgentsService,
    private readonly channels: ProviderChannels,
    private readonly conversations: ConversationsService,
    private readonly outbox: ChannelOutbox,
  ) {
    super(db, {
      concurrency: CONCURRENCY,
      perTeam: CONCURRENCY,
      leaseMs: LEASE_MS,
      sweepIntervalMs: 1_000,
      sweepGraceMs: 1_000,
    });
  }

  protected async findDue(limit: number, perTeam: number, dueBy: Date): Promise<QueuedJob[]> {
    const rows = await this.repository.jobs.due(limit, perTeam, dueBy);
    return rows.map((row) => testNumberJob(row.id));
  }

  protected claim(job: QueuedJob): Promise<Claim<TestNumberInboundEntity> | null> {
    return this.repository.jobs.claim(job.id, LEASE_MS);
  }

  protected renew(job: QueuedJob, claim: Claim<TestNumberInboundEntity>): Promise<boolean> {
    return this.repository.jobs.renew(job.id, claim.token, LEASE_MS);
  }

  protected releaseAll(): Promise<void> {
    return this.repository.jobs.releaseAll();
  }

  protected async perform(_job: QueuedJob, { row, token }: Claim<TestNumberInboundEntity>) {
    const configured = this.channels.testNumber() !== null;
    if (!configured || row.attempts > MAX_ATTEMPTS) {
      if (configured) {
        this.logger.error({ inbound_id: row.id }, 'Test number notification given up');
      }
      await this.repository.jobs.remove(row.id, token);
      return;
    }
    const parsed = parseWhatsAppNotification(JSON.parse(row.body));
    let unbound = 0;
    for (const message of parsed.messages) {
      if (!(await this.takeIn(message))) {
        unbound++;
      }
    }
    if (unbound > 0) {
      this.logger.log(
        { inbound_id: row.id, dropped: unbound },
        'Test number: sender bound to no agent',
      );
    }
    for (const status of parsed.statuses) {
      await this.outbox.providerStatus(
        TEST_NUMBER_CHANNEL_ID,
        status.providerMessageId,
        status.status,
        status.error,
      );
    }
    await this.repository.jobs.remove(row.id, token);
  }

  /** Whether the message reached an agent (or had already); false when its sender is unbound. */
  private takeIn(message: InboundMessage): Promise<boolean> {
    return this.db.transaction(async () => {
      if (!(await this.repository.firstTime(message.providerMessageId))) {
        return true;
      }
      const target = await this.targetOf(message);
      if (!target) {
        return false;
      }
      const notice = target.agentName === null ? undefined : boundNotice(target.agentName);
      await this.conversations.postFromChannelUser(
        target.teamId,
        target.agentId,
        {
          channelType: 'whatsapp',
          channelUserId: message.from,
          isTestChannel: true,
          username: message.profileName,
          profileName: message.profileName,
          channelId: TEST_NUMBER_CHANNEL_ID,
        },
        contentOf(message),
        notice,
      );
      return true;
    });
  }

  /**
   * The agent a test code names (binding the sender to it, its name given), else the one the
   * sender is bound to (no name).
   */
  private async targetOf(
    message: InboundMessage,
  ): Promise<(TestBinding & { agentName: string | null }) | null> {
    const agent =
      message.kind === 'text' && message.text
        ? await this.agents.findByTestChannelCode(message.text)
        : null;
    if (!agent) {
      const binding = await this.repository.bindingOf(message.from);
      return binding && { teamId: binding.teamId, agentId: binding.agentId, agentName: null };
    }
    const binding = { teamId: agent.teamId, agentId: agent.id };
    await this.repository.bind(message.from, binding);
    return { ...binding, agentName: agent.name };
  }
}
