import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import { ActionRunsRepository } from '@/modules/replies/action-runs/action-runs.repository';
import { ActionRunEntity } from '@/modules/replies/action-runs/entities/action-run.entity';
import { RunStates } from '@/modules/replies/action-runs/run-states';
import { RunSweeper } from '@/modules/replies/action-runs/run-sweeper.service';
import { PendingReplyEntity } from '@/modules/replies/entities/pending-reply.entity';
import { PendingRepliesRepository } from '@/modules/replies/pending-replies.repository';
import { createAgent } from '../factories/agents';
import { sendAs } from '../factories/conversations';
import { startTestApp, TestApp } from '../factories/test-app';
import { pollUntil } from '../support/wait';

const HOUR_MS = 3_600_000;

/**
 * The overwritten-outcome race, on the real tables: a worker (or caller) whose claim ran out,
 * and whose job another took over, settles late; its outcome must not replace the newer one.
 */
describe("claims on replies and action runs: a late settle never overwrites the newer attempt's", () => {
  let t: TestApp;
  let conversation: ConversationEntity;
  let messageId: string;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const agent = await createAgent(t);
    agentId = agent.id;
    // An answer of the team's own: the conversation exists, and no reply is owed.
    const sent = await sendAs(t, agent.id, 'claims-customer', 'Hello', { role: 'assistant' });
    messageId = sent.id;
    conversation = await t
      .dataSource()
      .getRepository(ConversationEntity)
      .findOneByOrFail({ id: sent.conversation_id });
  });
  afterAll(() => t.close());

  it('stores only the reply of the worker that took the pending reply over', async () => {
    const pending = t.app.get(PendingRepliesRepository);
    // Due an hour from now, so this application's own worker leaves it to the test.
    const asked = new Date(Date.now() + HOUR_MS);
    const row: PendingReplyEntity = {
      id: newId(),
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      messageId,
      attempts: 0,
      leaseUntil: null,
      leaseToken: null,
      createdAt: asked,
    };
    await t.app.get(Database).insert(PendingReplyEntity, [row]);

    const stalled = await pending.jobs.claim(row.id, 10_000, asked);
    expect(stalled).not.toBeNull();
    // Its lease has run out: another worker claims the reply (a second attempt).
    const later = new Date(asked.getTime() + 20_000);
    expect(await pending.jobs.claim(row.id, 10_000, asked)).toBeNull();
    const takeover = await pending.jobs.claim(row.id, 10_000, later);
    expect(takeover?.row.attempts).toBe(2);

    expect(await pending.jobs.renew(row.id, stalled!.token, 10_000)).toBe(false);
    expect(await pending.jobs.remove(row.id, stalled!.token)).toBe(false);
    expect(await t.dataSource().getRepository(PendingReplyEntity).countBy({ id: row.id })).toBe(1);

    expect(await pending.jobs.remove(row.id, takeover!.token)).toBe(true);
    expect(await t.dataSource().getRepository(PendingReplyEntity).countBy({ id: row.id })).toBe(0);
  });

  it('claims the pending replies asked for together in one statement, each row once', async () => {
    const db = t.app.get(Database);
    const pending = t.app.get(PendingRepliesRepository);
    // Due an hour from now, so this application's own worker leaves them to the test.
    const asked = new Date(Date.now() + HOUR_MS);
    // Answers of the team's own, each owed a reply here by hand.
    const answered = [
      await sendAs(t, agentId, 'claims-customer', 'One', { role: 'assistant' }),
      await sendAs(t, agentId, 'claims-customer', 'Two', { role: 'assistant' }),
    ];
    const rows = answered.map((message): PendingReplyEntity => ({
      id: newId(),
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      messageId: message.id,
      attempts: 0,
      leaseUntil: null,
      leaseToken: null,
      createdAt: asked,
    }));
    await db.insert(PendingReplyEntity, rows);
    const statements = jest.spyOn(db, 'execute');

    const [first, second, again] = await Promise.all([
      pending.jobs.claim(rows[0].id, 10_000, asked),
      pending.jobs.claim(rows[1].id, 10_000, asked),
      pending.jobs.claim(rows[0].id, 10_000, asked),
    ]);
    const claims = statements.mock.calls.filter(([sql]) =>
      sql.startsWith('UPDATE pending_replies'),
    );
    statements.mockRestore();
    expect(claims).toHaveLength(1);
    expect([first?.row.id, second?.row.id, again]).toEqual([rows[0].id, rows[1].id, null]);
    expect([first?.row.attempts, second?.row.attempts]).toEqual([1, 1]);

    expect(await pending.jobs.remove(rows[0].id, first!.token)).toBe(true);
    expect(await pending.jobs.remove(rows[1].id, second!.token)).toBe(true);
    const left = t.dataSource().getRepository(PendingReplyEntity);
    expect(await left.countBy({ conversationId: conversation.id })).toBe(0);
  });

  it("keeps the sweeper's interrupted outcome when the caller whose lease ran out settles late", async () => {
    const states = t.app.get(RunStates);
    const runs = t.app.get(ActionRunsRepository);
    const now = new Date();
    const run: ActionRunEntity = {
      id: newId(),
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      messageId,
      actionId: newId(),
      actionName: 'refund',
      arguments: { order: 'A1' },
      status: 'running',
      result: null,
      error: null,
      customerText: null,
      decidedByApiKeyId: null,
      createdAt: now,
      updatedAt: now,
      leaseUntil: null,
      leaseToken: null,
    };
    const callerToken = await states.start(run);
    // The caller stalls past its lease: the RunSweeper's next sweep claims the run, interrupts it.
    await t.app
      .get(Database)
      .update(ActionRunEntity, { id: run.id }, { leaseUntil: new Date(Date.now() - 1_000) });
    await t.app.get(RunSweeper)['sweep'](new Date());
    const { value: interrupted } = await pollUntil(
      () => runs.findOwned(run.teamId, run.agentId, run.id),
      (stored) => stored?.status === 'failed',
      10_000,
      20,
    );
    expect(interrupted).toMatchObject({ status: 'failed', error: 'interrupted' });

    expect(await states.renew(run.id, callerToken)).toBe(false);
    expect(
      await states.complete(run, callerToken, { ok: true, result: { refunded: true } }),
    ).toBeNull();
    const stored = await runs.findOwned(run.teamId, run.agentId, run.id);
    expect(stored).toMatchObject({ status: 'failed', error: 'interrupted', result: null });
    expect(stored?.leaseToken).toBeNull();
  });

  it('settles a run through the claim that holds it', async () => {
    const states = t.app.get(RunStates);
    const now = new Date();
    const run = {
      id: newId(),
      teamId: conversation.teamId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      messageId,
      actionId: newId(),
      actionName: 'lookup',
      arguments: {},
      status: 'running',
      result: null,
      error: null,
      customerText: null,
      decidedByApiKeyId: null,
      createdAt: now,
      updatedAt: now,
      leaseUntil: null,
      leaseToken: null,
    } satisfies ActionRunEntity;
    const token = await states.start(run);
    expect(await states.renew(run.id, token)).toBe(true);
    const settled = await states.complete(run, token, { ok: true, result: 'found' });
    expect(settled).toMatchObject({ status: 'succeeded', result: 'found', leaseToken: null });
  });
});
