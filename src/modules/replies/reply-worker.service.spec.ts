import { Logger } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowsService } from '@/modules/workflows/workflows.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import type { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { PendingReplyEntity } from './entities/pending-reply.entity';
import { ReplyRequests } from '@/modules/conversations/reply-requests.service';
import { PendingRepliesRepository } from './pending-replies.repository';
import { Reply, ReplyEngine } from './reply-engine';
import { ReplyWorker } from './reply-worker.service';

/** The model's timeout below plus the worker's margin. */
const LEASE_MS = 10_000;
const SWEEP_MS = 2_000;
const HANDOFF = 'Thanks for your message. Someone from the Acme team will get back to you shortly.';

const agent = { id: 'agent', teamId: 'team', name: 'Ada', businessName: 'Acme' } as AgentEntity;
const message = { id: 'message', conversationId: 'conversation', seq: 1 } as MessageEntity;

const leaseFree = (row: PendingReplyEntity) =>
  !row.leaseUntil || row.leaseUntil.getTime() < Date.now();

/** The pending_replies table, leased as the repository's queries lease it. */
class FakePending {
  readonly rows = new Map<string, PendingReplyEntity>();

  /** A user message's pending reply, written a sweep ago. */
  add(changes: Partial<PendingReplyEntity> = {}): void {
    this.rows.set('pending', {
      id: 'pending',
      teamId: 'team',
      agentId: 'agent',
      conversationId: 'conversation',
      messageId: 'message',
      attempts: 0,
      leaseUntil: null,
      createdAt: new Date(Date.now() - SWEEP_MS),
      ...changes,
    });
  }

  async claim(_teamId: string, id: string, leaseMs: number): Promise<PendingReplyEntity | null> {
    const row = this.rows.get(id);
    if (!row || !leaseFree(row)) {
      return null;
    }
    Object.assign(row, { leaseUntil: new Date(Date.now() + leaseMs), attempts: row.attempts + 1 });
    return { ...row };
  }

  async renew(_teamId: string, id: string, leaseMs: number): Promise<void> {
    const row = this.rows.get(id);
    if (row?.leaseUntil) {
      row.leaseUntil = new Date(Date.now() + leaseMs);
    }
  }

  async unclaimed(limit: number, olderThan: Date): Promise<PendingReplyEntity[]> {
    const rows = [...this.rows.values()];
    return rows.filter((row) => row.createdAt < olderThan && leaseFree(row)).slice(0, limit);
  }

  async remove(_teamId: string, id: string): Promise<boolean> {
    return this.rows.delete(id);
  }
}

/** The conversation, the replies stored in it and those published. */
class FakeConversations {
  conversation: ConversationEntity | null = {
    id: 'conversation',
    isAiChatPaused: false,
  } as ConversationEntity;
  readonly replies: Array<{ text: string; changes: object }> = [];
  readonly published: MessageEntity[] = [];
  messageReads = 0;

  async findForReply(): Promise<ConversationEntity | null> {
    return this.conversation;
  }

  async findMessage(): Promise<MessageEntity> {
    this.messageReads++;
    return message;
  }

  async recentMessages(): Promise<MessageEntity[]> {
    return [message];
  }

  async appendAssistant(_conversation: unknown, text: string, changes: object) {
    this.replies.push({ text, changes });
    return { ...message, message: text };
  }

  publish(stored: MessageEntity): void {
    this.published.push(stored);
  }
}

/** An engine that fails its first `failures` replies. */
class FakeEngine implements ReplyEngine {
  failures = 0;
  asked = 0;
  /** Runs while the engine thinks, as a concurrent request would. */
  meanwhile = () => {};

  async reply(): Promise<Reply> {
    this.asked++;
    this.meanwhile();
    if (this.asked <= this.failures) {
      throw new Error('model unreachable');
    }
    return { text: 'Hello!', needsAttention: false, source: 'llm' };
  }
}

describe('ReplyWorker', () => {
  let pending: FakePending;
  let conversations: FakeConversations;
  let engine: FakeEngine;
  let agents: Map<string, AgentEntity>;
  let errors: jest.SpyInstance;
  let worker: ReplyWorker;

  /** Lets the fake clock run `ms`, sweeps included, and the replies they start finish. */
  async function after(ms: number): Promise<void> {
    await jest.advanceTimersByTimeAsync(ms);
    await new Promise((resolve) => setImmediate(resolve));
  }

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z'), doNotFake: ['setImmediate'] });
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation();
    jest.spyOn(Logger.prototype, 'debug').mockImplementation();
    pending = new FakePending();
    conversations = new FakeConversations();
    engine = new FakeEngine();
    agents = new Map([['agent', agent]]);
    worker = new ReplyWorker(
      {
        kind: 'postgres',
        transaction: (work: (manager: object) => unknown) => work({}),
      } as unknown as Database,
      pending as unknown as PendingRepliesRepository,
      conversations as unknown as ConversationsService,
      {
        requireOwned: async (_teamId: string, id: string) => {
          return agents.get(id) ?? Promise.reject(Errors.notFound('Agent not found'));
        },
      } as unknown as AgentsService,
      { findForAgent: async () => null } as unknown as WorkflowsService,
      { listen: () => undefined } as unknown as ReplyRequests,
      engine,
      { llm: { timeoutMs: LEASE_MS - 5_000 } } as AppConfig,
    );
  });

  afterEach(() => {
    worker.onModuleDestroy();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('answers a reply nobody claimed on the first sweep, then forgets it', async () => {
    pending.add();

    await worker.onApplicationBootstrap();
    await after(0);

    expect(conversations.replies).toEqual([{ text: 'Hello!', changes: {} }]);
    expect(conversations.published).toHaveLength(1);
    expect(pending.rows.size).toBe(0);
  });

  it('reads the user message only when the request that stored it did not hand it over', async () => {
    pending.add();
    worker.schedule({ id: 'pending', teamId: 'team', conversationId: 'conversation' }, message);
    await after(0);
    expect(conversations.replies.map((reply) => reply.text)).toEqual(['Hello!']);
    expect(conversations.messageReads).toBe(0);

    pending.add();
    worker.schedule({ id: 'pending', teamId: 'team', conversationId: 'conversation' });
    await after(0);
    expect(conversations.replies).toHaveLength(2);
    expect(conversations.messageReads).toBe(1);
  });

  it('takes over a reply whose worker died, once its lease ran out', async () => {
    pending.add({ attempts: 1, leaseUntil: new Date(Date.now() - 1) });

    await worker.onApplicationBootstrap();
    await after(0);

    expect(conversations.replies.map((reply) => reply.text)).toEqual(['Hello!']);
  });

  it('leaves a reply leased by a live worker alone until the lease runs out', async () => {
    pending.add({ attempts: 1, leaseUntil: new Date(Date.now() + 5_000) });

    await worker.onApplicationBootstrap();
    worker.schedule({ id: 'pending', teamId: 'team', conversationId: 'conversation' });
    await after(4_000);
    expect(engine.asked).toBe(0);

    await after(2_000);
    expect(conversations.replies.map((reply) => reply.text)).toEqual(['Hello!']);
  });

  it('retries a reply whose engine failed once its lease runs out', async () => {
    pending.add();
    engine.failures = 1;

    await worker.onApplicationBootstrap();
    await after(LEASE_MS - SWEEP_MS);
    expect(engine.asked).toBe(1);
    expect(errors).toHaveBeenCalledTimes(1);

    await after(2 * SWEEP_MS);
    expect(engine.asked).toBe(2);
    expect(conversations.replies.map((reply) => reply.text)).toEqual(['Hello!']);
  });

  it('hands off, raising attention, after the engine failed five times', async () => {
    pending.add();
    engine.failures = Infinity;

    await worker.onApplicationBootstrap();
    await after(6 * (LEASE_MS + SWEEP_MS));

    expect(engine.asked).toBe(5);
    expect(conversations.replies).toEqual([{ text: HANDOFF, changes: { needsAttention: true } }]);
  });

  it.each([
    ['agent', () => agents.clear()],
    ['conversation', () => (conversations.conversation = null)],
  ])('drops quietly the reply of an %s deleted meanwhile', async (_gone, deleteIt) => {
    pending.add();
    deleteIt();

    await worker.onApplicationBootstrap();
    await after(0);

    expect(engine.asked).toBe(0);
    expect(conversations.replies).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  it('stores nothing when the conversation goes while its reply is being written', async () => {
    pending.add();
    engine.meanwhile = () => {
      conversations.conversation = null;
      pending.rows.clear();
    };

    await worker.onApplicationBootstrap();
    await after(0);

    expect(engine.asked).toBe(1);
    expect(conversations.replies).toEqual([]);
    expect(conversations.published).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  it.each([
    [
      'conversation whose AI chat is paused',
      () => (conversations.conversation!.isAiChatPaused = true),
    ],
    ['paused agent', () => agents.set('agent', { ...agent, status: 'paused' })],
  ])('discards the reply of a %s', async (_paused, pause) => {
    pending.add();
    pause();

    await worker.onApplicationBootstrap();
    await after(0);

    expect(engine.asked).toBe(0);
    expect(pending.rows.size).toBe(0);
    expect(conversations.replies).toEqual([]);
  });
});
