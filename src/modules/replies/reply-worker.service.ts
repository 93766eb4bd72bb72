import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { ApiError } from '@/common/http/api-error';
import { Database } from '@/database/database.service';
import { isRecordGoneMeanwhile } from '@/database/errors';
import { AgentsService } from '@/modules/agents/agents.service';
import { WorkflowsService } from '@/modules/workflows/workflows.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { PendingReplyEntity } from './entities/pending-reply.entity';
import { ReplyRequests } from '@/modules/conversations/reply-requests.service';
import { messageActionOf, runLine } from './action-runs/action-lines';
import { PendingRepliesRepository } from './pending-replies.repository';
import { handoffReply, Reply, REPLY_ENGINE, ReplyEngine } from './reply-engine';

const HISTORY_MESSAGES = 20;
const SWEEP_INTERVAL_MS = 2_000;
/** A reply scheduled by its own request is left to it this long before a sweep takes it. */
const SWEEP_GRACE_MS = 1_000;
const SWEEP_BATCH = 50;
const MAX_ATTEMPTS = 5;
/** Beyond its model calls and action calls, a reply takes a few database round trips. */
const REPLY_LEASE_MARGIN_MS = 5_000;

/**
 * Produces the replies that user messages are waiting for. The pending mark is written with the
 * user message; a worker leases it, asks the reply engine, then stores the reply and removes the
 * mark in one transaction. A worker that dies leaves a lease that runs out, and a sweep (on start
 * and every few seconds) hands the reply to another, so no acknowledged message goes unanswered.
 * Replies of one conversation are produced one after another, in order.
 */
@Injectable()
export class ReplyWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ReplyWorker.name);
  private readonly leaseMs: number;
  private readonly queues = new Map<string, Promise<void>>();
  private sweeper?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly pending: PendingRepliesRepository,
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsService,
    private readonly workflows: WorkflowsService,
    requests: ReplyRequests,
    @Inject(REPLY_ENGINE) private readonly engine: ReplyEngine,
    config: AppConfig,
  ) {
    this.leaseMs = config.llm.timeoutMs + REPLY_LEASE_MARGIN_MS;
    // The pending mark is written with the message, and the reply scheduled once both commit.
    requests.listen(async (message) => {
      const pending = await this.pending.add(message);
      this.db.afterCommit(() => this.schedule(pending, message));
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.db.kind === 'sqlite') {
      await this.pending.releaseAllLeases();
    }
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    void this.sweep(new Date());
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
  }

  /**
   * Queues the reply behind earlier ones of the same conversation. The request that stored the
   * user message hands it over (messages never change), so it need not be read again.
   */
  schedule(
    pending: Pick<PendingReplyEntity, 'id' | 'teamId' | 'conversationId'>,
    message?: MessageEntity,
  ): void {
    if (this.stopped) {
      return;
    }
    const previous = this.queues.get(pending.conversationId) ?? Promise.resolve();
    const next = previous
      .then(() => this.process(pending.teamId, pending.id, message))
      .catch((error: unknown) => this.reportFailure(pending.id, error));
    this.queues.set(pending.conversationId, next);
    void next.finally(() => {
      if (this.queues.get(pending.conversationId) === next) {
        this.queues.delete(pending.conversationId);
      }
    });
  }

  private reportFailure(pendingId: string, error: unknown): void {
    // The agent or conversation was deleted while its reply was being written (its pending
    // reply went with it): nothing to retry, nothing wrong.
    if (isRecordGoneMeanwhile(error) || (error instanceof ApiError && error.code === 'not_found')) {
      this.logger.debug({ pending_id: pendingId }, 'Reply dropped: its conversation is gone');
      return;
    }
    this.logger.error({ err: error, pending_id: pendingId }, 'Reply failed; will retry');
  }

  private async sweep(olderThan = new Date(Date.now() - SWEEP_GRACE_MS)): Promise<void> {
    try {
      for (const pending of await this.pending.unclaimed(SWEEP_BATCH, olderThan)) {
        if (!this.queues.has(pending.conversationId)) {
          this.schedule(pending);
        }
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not look for pending replies');
    }
  }

  private async process(teamId: string, pendingId: string, known?: MessageEntity): Promise<void> {
    const pending = this.stopped ? null : await this.pending.claim(teamId, pendingId, this.leaseMs);
    if (!pending) {
      return;
    }
    // A reply with tool calls takes several model and action calls: the lease is renewed while
    // this worker lives, and runs out soon after it dies.
    const renewal = setInterval(
      () =>
        void this.pending
          .renew(teamId, pendingId, this.leaseMs)
          .catch((error: unknown) =>
            this.logger.warn(
              { err: error, pending_id: pendingId },
              'Could not renew a reply lease',
            ),
          ),
      this.leaseMs / 3,
    );
    renewal.unref();
    try {
      await this.produce(pending, known);
    } finally {
      clearInterval(renewal);
    }
  }

  private async produce(pending: PendingReplyEntity, known?: MessageEntity): Promise<void> {
    const conversation = await this.conversations.findForReply(
      pending.teamId,
      pending.agentId,
      pending.conversationId,
    );
    const message =
      conversation &&
      (known?.id === pending.messageId
        ? known
        : await this.conversations.findMessage(
            pending.teamId,
            pending.conversationId,
            pending.messageId,
          ));
    if (!conversation || !message) {
      return;
    }
    const agent = await this.agents.requireOwned(pending.teamId, pending.agentId);
    if (conversation.isAiChatPaused || agent.status === 'paused') {
      await this.pending.remove(pending.teamId, pending.id);
      return;
    }
    const reply: Reply =
      pending.attempts > MAX_ATTEMPTS
        ? handoffReply(agent)
        : await this.engine.reply({
            agent,
            workflow: await this.workflows.findForAgent(agent.teamId, agent.workflowId),
            conversation,
            message,
            history: () =>
              this.conversations
                .recentMessages(pending.teamId, conversation.id, HISTORY_MESSAGES)
                .then((recent) => upTo(recent, message)),
          });
    const stored = await this.db.transaction(async () => {
      if (!(await this.pending.remove(pending.teamId, pending.id))) {
        return null;
      }
      const written: MessageEntity[] = [];
      for (const run of reply.runs ?? []) {
        written.push(
          await this.conversations.appendAssistant(
            conversation,
            runLine(run),
            {},
            messageActionOf(run),
          ),
        );
      }
      written.push(
        await this.conversations.appendAssistant(conversation, reply.text, {
          ...(reply.needsAttention ? { needsAttention: true } : {}),
          ...(reply.flowState !== undefined ? { flowState: reply.flowState } : {}),
          ...(reply.context !== undefined ? { context: reply.context } : {}),
        }),
      );
      return written;
    });
    if (stored) {
      stored.forEach((written) => this.conversations.publish(written));
      this.logger.debug({ conversation_id: conversation.id, source: reply.source }, 'Reply sent');
    }
  }
}

function upTo(history: MessageEntity[], message: MessageEntity): MessageEntity[] {
  return history.filter((entry) => entry.seq <= message.seq);
}
