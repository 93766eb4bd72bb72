import { Logger } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { dialectOf } from '@/database/sql/dialect';
import { AgentsService } from '@/modules/agents/agents.service';
import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowsService } from '@/modules/workflows/workflows.service';
import { ConversationsService } from '@/modules/conversations/conversations.service';
import { ReplyRequests } from '@/modules/conversations/reply-requests.service';
import { PendingRepliesRepository } from './pending-replies.repository';
import { ReplyWorker } from './reply-worker.service';
import {
  FakeConversations,
  FakeEngine,
  FakePending,
  message,
  SWEEP_MS,
} from './reply-worker.fixtures';

/** The model's timeout below plus the worker's margin. */
const LEASE_MS = 10_000;
const HANDOFF = 'Thanks for your message. Someone from the Acme team will get back to you shortly.';

const agent = { id: 'agent', teamId: 'team', name: 'Ada', businessName: 'Acme' } as AgentEntity;
const job = { id: 'pending', teamId: 'team', lane: 'conversation' };

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

  /** Starts the worker, which sweeps at once, and lets the replies it starts finish. */
  async function started(): Promise<void> {
    await worker.onApplicationBootstrap();
    await after(0);
  }

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z'), doNotFake: ['setImmediate'] });
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation();
    jest.spyOn(Logger.prototype, 'debug').mockImplementation();
    pending = new FakePending();
    conversations = new FakeConversations();
    engine = new FakeEngine();
    agents = new Map([['agent', agent]]);
    worker = newWorker();
  });

  function newWorker(): ReplyWorker {
    return new ReplyWorker(
      {
        dialect: dialectOf('postgres'),
        transaction: (work: () => unknown) => work(),
        grouped: (work: () => unknown) => work(),
        afterCommit: (callback: () => void) => callback(),
      } as unknown as Database,
      pending as unknown as PendingRepliesRepository,
      conversations as unknown as ConversationsService,
      {
        requireOwned: async (_teamId: string, id: string) =>
          agents.get(id) ?? Promise.reject(Errors.notFound('Agent not found')),
      } as unknown as AgentsService,
      { findForAgent: async () => null } as unknown as WorkflowsService,
      { listen: () => undefined, measureBacklogWith: () => undefined } as unknown as ReplyRequests,
      engine,
      { llm: { timeoutMs: LEASE_MS - 5_000 } } as AppConfig,
    );
  }

  afterEach(() => {
    worker.onModuleDestroy();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('answers a reply nobody claimed on the first sweep, then forgets it', async () => {
    pending.add();
    await started();
    expect(conversations.replies).toEqual([{ text: 'Hello!', changes: {} }]);
    expect(conversations.published).toHaveLength(1);
    expect(pending.rows.size).toBe(0);
  });

  it('reads the user message only when the request that stored it did not hand it over', async () => {
    pending.add();
    worker.schedule({ ...job, message });
    await after(0);
    expect(conversations.replies.map((reply) => reply.text)).toEqual(['Hello!']);
    expect(conversations.messageReads).toBe(0);

    pending.add();
    worker.schedule(job);
    await after(0);
    expect(conversations.replies).toHaveLength(2);
    expect(conversations.messageReads).toBe(1);
  });

  it('takes over a reply whose worker died, once its lease ran out', async () => {
    pending.add({ attempts: 1, leaseUntil: new Date(Date.now() - 1) });
    await started();
    expect(conversations.replies.map((reply) => reply.text)).toEqual(['Hello!']);
  });

  it('leaves a reply leased by a live worker alone until the lease runs out', async () => {
    pending.add({ attempts: 1, leaseUntil: new Date(Date.now() + 5_000) });

    await worker.onApplicationBootstrap();
    worker.schedule(job);
    await after(4_000);
    expect(engine.asked).toBe(0);

    // A sweep takes a job whose lease ran out a sweep's grace (1 s) ago.
    await after(4_000);
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
    const handoff = { handoffReason: 'no answer found', handoffSource: 'no_answer' };
    const changes = { needsAttention: true, ...handoff, handoffAt: expect.any(Date) };
    expect(conversations.replies).toEqual([{ text: HANDOFF, changes }]);
  });

  it.each([
    ['agent', () => agents.clear()],
    ['conversation', () => (conversations.conversation = null)],
  ])('drops quietly the reply of an %s deleted meanwhile', async (_gone, deleteIt) => {
    pending.add();
    deleteIt();
    await started();
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
    await started();
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
    await started();
    expect(engine.asked).toBe(0);
    expect(pending.rows.size).toBe(0);
    expect(conversations.replies).toEqual([]);
  });

  it("does not store a reply whose claim ran out and was taken over: the newer attempt's stands", async () => {
    pending.add();
    let answerFirst!: () => void;
    engine.answers = ['Hello from the stalled worker', 'Hello from the worker that took over'];
    // The first worker stalls past its lease (its renewals do not get through) while it thinks.
    engine.meanwhile = () =>
      engine.asked === 1 &&
      ((pending.renewing = false), new Promise<void>((resolve) => (answerFirst = resolve)));
    await started();
    expect(engine.asked).toBe(1);

    const other = newWorker();
    await other.onApplicationBootstrap();
    await after(LEASE_MS + 2 * SWEEP_MS);
    other.onModuleDestroy();
    answerFirst();
    await after(0);

    expect(engine.asked).toBe(2);
    const stored = conversations.replies.map((reply) => reply.text);
    expect(stored).toEqual(['Hello from the worker that took over']);
    expect(conversations.published).toHaveLength(1);
  });
});
