import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { ApiError } from '@/common/http/api-error';
import { Database } from '@/database/database.service';
import { isRecordGoneMeanwhile } from '@/database/errors';
import { QueuedJob } from '@/database/jobs/fair-queue';
import { Claim } from '@/database/jobs/job-table';
import { JobWorker } from '@/database/jobs/job-worker';
import { AgentsService } from '@/modules/agents/agents.service';
import { WorkflowsService } from '@/modules/workflows/workflows.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { actionLine, aiReply, serviceNotice } from '@/modules/conversations/conversations.public';
import type { ConversationChanges } from '@/modules/conversations/conversations.public';
import { ReplyRequests } from '@/modules/conversations/reply-requests.service';
import { PendingReplyEntity } from './entities/pending-reply.entity';
import { messageActionOf, runLine } from './action-runs/action-lines';
import { PendingRepliesRepository } from './pending-replies.repository';
import { handoffReply } from './handoff-line';
import { Handoff, Reply, REPLY_ENGINE, ReplyEngine } from './reply-engine';

const HISTORY_MESSAGES = 20;
/**
 * Replies produced at once in one process, and of one team. A reply mostly waits on the model,
 * so many run side by side; a team's backlog still leaves most of the slots to the others.
 */
const CONCURRENCY = 64;
const PER_TEAM = 16;
const MAX_ATTEMPTS = 5;
/** Beyond its model calls and action calls, a reply takes a few database round trips. */
const REPLY_LEASE_MARGIN_MS = 5_000;

/** A reply to produce; its lane is its conversation, whose replies are produced in order. */
export interface ReplyJob extends QueuedJob {
  lane: string;
  /** The user message, when the request that stored it handed it over (messages never change). */
  message?: MessageEntity;
}

/**
 * Produces the replies that user messages are waiting for. The pending mark is written with the
 * user message and is a job (see `JobWorker`): a worker claims it, asks the reply engine, then
 * stores the reply and removes the mark in one transaction, only while its claim holds; claims and
 * stored replies of several conversations share commits (`Database.grouped`). A worker that dies
 * leaves a lease that runs out, and a sweep hands the reply to another, so no acknowledged
 * message goes unanswered. Replies of one conversation are produced one after another, in order;
 * teams take turns for the slots.
 */
@Injectable()
export class ReplyWorker extends JobWorker<ReplyJob, PendingReplyEntity> {
  protected readonly logger = new Logger(ReplyWorker.name);

  constructor(
    db: Database,
    private readonly pending: PendingRepliesRepository,
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsService,
    private readonly workflows: WorkflowsService,
    requests: ReplyRequests,
    @Inject(REPLY_ENGINE) private readonly engine: ReplyEngine,
    config: AppConfig,
  ) {
    super(db, {
      concurrency: CONCURRENCY,
      perTeam: PER_TEAM,
      leaseMs: config.llm.timeoutMs + REPLY_LEASE_MARGIN_MS,
      sweepIntervalMs: 2_000,
      sweepGraceMs: 1_000,
      waitingMax: config.llm.waitingMax,
    });
    requests.measureBacklogWith({
      size: () => this.inFlight,
      turn: (timeoutMs) => this.admission.enter(timeoutMs),
    });
    // The pending mark is written with the message, and the reply scheduled once both commit.
    requests.listen(async (message) => {
      const pending = await this.pending.add(message);
      this.db.afterCommit(() => this.schedule({ ...jobOf(pending), message }));
    });
  }

  protected async findDue(limit: number, perTeam: number, dueBy: Date): Promise<ReplyJob[]> {
    return (await this.pending.jobs.due(limit, perTeam, dueBy)).map(jobOf);
  }

  protected claim(job: ReplyJob): Promise<Claim<PendingReplyEntity> | null> {
    return this.pending.jobs.claim(job.id, this.options.leaseMs);
  }

  protected renew(job: ReplyJob, claim: Claim<PendingReplyEntity>): Promise<boolean> {
    return this.pending.jobs.renew(job.id, claim.token, this.options.leaseMs);
  }

  protected releaseAll(): Promise<void> {
    return this.pending.jobs.releaseAll();
  }

  protected override failed(job: ReplyJob, error: unknown): void {
    // The agent or conversation was deleted while its reply was being written (its pending
    // reply went with it): nothing to retry, nothing wrong.
    if (isRecordGoneMeanwhile(error) || (error instanceof ApiError && error.code === 'not_found')) {
      this.logger.debug({ pending_id: job.id }, 'Reply dropped: its conversation is gone');
      return;
    }
    this.logger.error({ err: error, pending_id: job.id }, 'Reply failed; will retry');
  }

  protected async perform(job: ReplyJob, { row: pending, token }: Claim<PendingReplyEntity>) {
    const conversation = await this.conversations.findForReply(
      pending.teamId,
      pending.agentId,
      pending.conversationId,
    );
    const message =
      conversation &&
      (job.message?.id === pending.messageId
        ? job.message
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
      await this.pending.jobs.remove(pending.id, token);
      return;
    }
    const workflow = await this.workflows.findForAgent(agent.teamId, agent.workflowId);
    const reply: Reply =
      pending.attempts > MAX_ATTEMPTS
        ? handoffReply(agent, workflow)
        : await this.engine.reply({
            agent,
            workflow,
            conversation,
            message,
            history: () =>
              this.conversations
                .recentMessages(pending.teamId, conversation.id, HISTORY_MESSAGES)
                .then((recent) => upTo(recent, message)),
            onDelta: this.deltasOf(conversation.id, message.id),
          });
    const stored = await this.db.grouped(async () => {
      // Only while the claim holds: a worker that took the reply over stores its own.
      if (!(await this.pending.jobs.remove(pending.id, token))) {
        return null;
      }
      // A person took over while the reply was being written: the AI keeps silent.
      if (await this.conversations.isAiPaused(conversation)) {
        return [];
      }
      const written: MessageEntity[] = [];
      for (const run of reply.runs ?? []) {
        written.push(
          await this.conversations.appendAssistant(
            conversation,
            actionLine(runLine(run), messageActionOf(run)),
          ),
        );
      }
      // The fixed hand-off line is the service's; every other answer is the AI's.
      const draft = reply.source === 'handoff' ? serviceNotice(reply.text) : aiReply(reply.text);
      written.push(
        await this.conversations.appendAssistant(conversation, draft, {
          ...(reply.needsAttention ? { needsAttention: true } : {}),
          ...(reply.handoff ? handoffChanges(reply.handoff, agent) : {}),
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

  /** The reply's pieces, numbered from 0 across all the model's rounds, to the streams. */
  private deltasOf(conversationId: string, replyTo: string): (text: string) => void {
    let index = 0;
    return (text) => this.conversations.publishReplyDelta(conversationId, replyTo, index++, text);
  }
}

/** The hand-off recorded on the conversation; it pauses the AI unless the agent says otherwise. */
function handoffChanges(handoff: Handoff, agent: AgentEntity): ConversationChanges {
  return {
    handoffReason: handoff.reason,
    handoffSource: handoff.source,
    handoffAt: new Date(),
    // The hand-off announces needs_attention itself: the paused stretch has been announced.
    ...(agent.handoffPausesAi ? { isAiChatPaused: true, pauseAnnounced: true } : {}),
  };
}

function jobOf(pending: PendingReplyEntity): ReplyJob {
  return { id: pending.id, teamId: pending.teamId, lane: pending.conversationId };
}

function upTo(history: MessageEntity[], message: MessageEntity): MessageEntity[] {
  return history.filter((entry) => entry.seq <= message.seq);
}
