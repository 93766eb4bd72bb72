import { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import { SnoozesRepository } from '@/modules/conversations/inbox/snoozes.repository';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs, sendTo } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { WebhookReceiver } from '../support/webhook-receiver';

const INBOX_EVENTS = ['conversation.status_changed', 'conversation.assigned'];

describe('the team inbox: status, assignee, labels, priority', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let agentId: string;
  let base: string;
  let user = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp();
    // The first message is answered by a rule, not handed off.
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi!', enabled: true }],
    });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createWebhook(t, receiver.url, INBOX_EVENTS);
    base = conversationsPath(agentId);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function newConversation(): Promise<string> {
    const sent = await sendAs(t, agentId, `inbox-${++user}`, 'Hello');
    await repliesSettled(t);
    return sent.conversation_id;
  }

  const patch = (id: string, body: object, key = t.key) =>
    t.api(key).patch(`${base}/${id}`).send(body);

  async function eventsFor(id: string, type: string, count: number) {
    await receiver.waitFor(
      (events) =>
        events.filter((e) => e.body.type === type && e.body.data.id === id).length >= count,
    );
    return receiver.ofType(type).filter((e) => e.body.data.id === id);
  }

  it('gives a new conversation the inbox defaults', async () => {
    const id = await newConversation();
    const res = await t.api().get(`${base}/${id}`).expect(200);
    expect(res.body.data).toMatchObject({
      agent_id: agentId,
      status: 'open',
      snoozed_until: null,
      assignee: null,
      labels: [],
      priority: 'normal',
      handoff: null,
    });
    const list = await t.api().get(base).expect(200);
    expect(list.body.data.find((c: { id: string }) => c.id === id)).toMatchObject({
      status: 'open',
      agent_id: agentId,
    });
  });

  it('changes each field, announcing status and assignee changes', async () => {
    const id = await newConversation();
    const res = await patch(id, {
      status: 'pending',
      assignee: { id: 'op-1', name: 'Kemi' },
      labels: ['refund', 'vip', 'refund'],
      priority: 'urgent',
    }).expect(200);
    expect(res.body.data).toMatchObject({
      id,
      status: 'pending',
      assignee: { id: 'op-1', name: 'Kemi' },
      labels: ['refund', 'vip'],
      priority: 'urgent',
    });
    const stored = await t.api().get(`${base}/${id}`).expect(200);
    expect(stored.body.data).toMatchObject(res.body.data);
    const [status] = await eventsFor(id, 'conversation.status_changed', 1);
    expect(status.body.data).toMatchObject({ id, agent_id: agentId, status: 'pending' });
    const [assigned] = await eventsFor(id, 'conversation.assigned', 1);
    expect(assigned.body.data.assignee).toEqual({ id: 'op-1', name: 'Kemi' });

    const unassigned = await patch(id, { assignee: null, labels: [] }).expect(200);
    expect(unassigned.body.data).toMatchObject({ assignee: null, labels: [] });
    const events = await eventsFor(id, 'conversation.assigned', 2);
    expect(events[1].body.data.assignee).toBeNull();
    // Unchanged values announce nothing.
    await patch(id, { status: 'pending', priority: 'urgent' }).expect(200);
    await patch(id, { status: 'open' }).expect(200);
    const statuses = await eventsFor(id, 'conversation.status_changed', 2);
    // Deliveries may arrive in any order.
    expect(statuses.map((e) => e.body.data.status).sort()).toEqual(['open', 'pending']);
  });

  it('refuses what the contract does not allow', async () => {
    const id = await newConversation();
    const future = new Date(Date.now() + 60_000).toISOString();
    const past = new Date(Date.now() - 60_000).toISOString();
    const invalid: object[] = [
      { status: 'closed' },
      { status: null },
      { status: 'snoozed' },
      { status: 'snoozed', snoozed_until: past },
      { status: 'snoozed', snoozed_until: 'tomorrow' },
      { status: 'open', snoozed_until: future },
      { snoozed_until: future },
      { priority: 'asap' },
      { labels: 'vip' },
      { labels: [''] },
      { labels: ['x'.repeat(51)] },
      { labels: Array.from({ length: 21 }, (_, i) => `l${i}`) },
      { labels: [7] },
      { assignee: { name: 'Kemi' } },
      { assignee: 'op-1' },
      { unknown_field: 1 },
    ];
    for (const body of invalid) {
      const res = await patch(id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.code).toBe('validation_error');
    }
    await patch(id, { labels: Array.from({ length: 20 }, (_, i) => `${i}`.repeat(1)) }).expect(200);
    await patch(id, { labels: ['x'.repeat(50)] }).expect(200);
    const snoozed = await patch(id, { status: 'snoozed', snoozed_until: future }).expect(200);
    expect(snoozed.body.data).toMatchObject({ status: 'snoozed', snoozed_until: future });
    const reopened = await patch(id, { status: 'open' }).expect(200);
    expect(reopened.body.data.snoozed_until).toBeNull();
  });

  it('needs inbox:write, and finds only the team’s own conversations', async () => {
    const id = await newConversation();
    const reader = await t.createKey('default', ['conversations:read', 'conversations:write']);
    await patch(id, { status: 'resolved' }, reader.key).expect(403);
    const other = await t.createKey('inbox-other-team', ['*']);
    await patch(id, { status: 'resolved' }, other.key).expect(404);
    const stored = await t.api().get(`${base}/${id}`).expect(200);
    expect(stored.body.data.status).toBe('open');
    const staff = await t.createKey('default', ['inbox:write']);
    await patch(id, { status: 'pending' }, staff.key).expect(200);
    await patch('00000000-0000-4000-8000-000000000000', { status: 'open' }).expect(404);
  });

  it('resolving clears needs_attention and resumes the AI', async () => {
    const id = await newConversation();
    await t.api().patch(`${base}/${id}/ai-status`).send({ is_ai_chat_paused: true }).expect(200);
    await t.dataSource().getRepository(ConversationEntity).update(id, { needsAttention: true });
    const res = await patch(id, { status: 'resolved' }).expect(200);
    expect(res.body.data).toMatchObject({
      status: 'resolved',
      needs_attention: false,
      is_ai_chat_paused: false,
    });
  });

  it('a customer message reopens a resolved or snoozed conversation, announced', async () => {
    const id = await newConversation();
    await patch(id, { status: 'resolved' }).expect(200);
    await sendTo(t, agentId, id, 'One more thing');
    await repliesSettled(t);
    expect((await t.api().get(`${base}/${id}`).expect(200)).body.data.status).toBe('open');
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await patch(id, { status: 'snoozed', snoozed_until: until }).expect(200);
    await sendAs(t, agentId, `inbox-${user}`, 'Still there?');
    await repliesSettled(t);
    const reopened = (await t.api().get(`${base}/${id}`).expect(200)).body.data;
    expect(reopened).toMatchObject({ status: 'open', snoozed_until: null });
    const events = await eventsFor(id, 'conversation.status_changed', 4);
    expect(events.map((e) => e.body.data.status).sort()).toEqual([
      'open',
      'open',
      'resolved',
      'snoozed',
    ]);
    // An operator's message does not reopen.
    await patch(id, { status: 'resolved' }).expect(200);
    await sendTo(t, agentId, id, 'Glad to help', 'assistant');
    expect((await t.api().get(`${base}/${id}`).expect(200)).body.data.status).toBe('resolved');
  });

  it("keeps the queue's label filter with the labels, status and assignee as they change", async () => {
    const id = await newConversation();
    const label = `follow-${user}`;
    const listed = async (query: string, which = label) => {
      const res = await t
        .api()
        .get(`${API}/conversations?limit=100&label=${which}&${query}`)
        .expect(200);
      expect(res.body.meta.total_count).toBe(res.body.data.length);
      return res.body.data.some((c: { id: string }) => c.id === id);
    };
    await patch(id, { labels: [label, 'other'], assignee: { id: 'op-7', name: 'Kemi' } }).expect(
      200,
    );
    expect(await listed('status=open&assignee_id=op-7')).toBe(true);
    expect(await listed('assignee_id=none')).toBe(false);
    await patch(id, { status: 'resolved', assignee: null }).expect(200);
    expect(await listed('status=resolved&assignee_id=none')).toBe(true);
    expect(await listed('status=open')).toBe(false);
    // A customer's message reopens it.
    await sendAs(t, agentId, `inbox-${user}`, 'Hello again');
    await repliesSettled(t);
    expect(await listed('status=open&assignee_id=none')).toBe(true);
    // So does the end of a snooze.
    const until = Date.now() + 3_600_000;
    await patch(id, { status: 'snoozed', snoozed_until: new Date(until).toISOString() }).expect(
      200,
    );
    expect(await listed('status=snoozed')).toBe(true);
    const snoozes = t.app.get(SnoozesRepository, { strict: false });
    const claim = await snoozes.claim(id, 60_000, new Date(until + 3_600_000));
    expect(await snoozes.reopen(id, claim!.token, new Date(), async () => 'reopened')).toEqual({
      result: 'reopened',
    });
    expect(await listed('status=open')).toBe(true);
    expect(await listed('status=snoozed')).toBe(false);
    await patch(id, { labels: ['other'] }).expect(200);
    expect(await listed('')).toBe(false);
    expect(await listed('status=open', 'other')).toBe(true);
    await patch(id, { labels: [] }).expect(200);
    expect(await listed('', 'other')).toBe(false);
  });

  describe('a snooze that ends', () => {
    const HOUR = 3_600_000;

    it('reopens the conversation on time, announced', async () => {
      const id = await newConversation();
      const until = new Date(Date.now() + 1_200).toISOString();
      await patch(id, { status: 'snoozed', snoozed_until: until }).expect(200);
      const [event] = await eventsFor(id, 'conversation.status_changed', 2).then((events) =>
        events.filter((e) => e.body.data.status === 'open'),
      );
      expect(event.body.data).toMatchObject({ id, status: 'open', snoozed_until: null });
      const reopenedAt = Date.parse(event.body.created_at);
      expect(reopenedAt).toBeGreaterThanOrEqual(Date.parse(until));
      expect(reopenedAt - Date.parse(until)).toBeLessThan(3_000);
      const stored = (await t.api().get(`${base}/${id}`).expect(200)).body.data;
      expect(stored).toMatchObject({ status: 'open', snoozed_until: null });
    });

    it("an expired claim's late settle does not overwrite the newer one's outcome", async () => {
      const snoozes = t.app.get(SnoozesRepository, { strict: false });
      const id = await newConversation();
      const until = Date.now() + HOUR;
      await patch(id, { status: 'snoozed', snoozed_until: new Date(until).toISOString() }).expect(
        200,
      );
      const first = await snoozes.claim(id, 1, new Date(until + HOUR));
      const second = await snoozes.claim(id, 60_000, new Date(until + 2 * HOUR));
      expect(first && second).toBeTruthy();
      const announced: string[] = [];
      const late = await snoozes.reopen(id, first!.token, new Date(), async () => {
        announced.push('first');
      });
      expect(late).toBeNull();
      expect((await t.api().get(`${base}/${id}`).expect(200)).body.data.status).toBe('snoozed');
      expect(
        await snoozes.reopen(id, second!.token, new Date(), async () => {
          announced.push('second');
        }),
      ).not.toBeNull();
      expect(announced).toEqual(['second']);
      expect((await t.api().get(`${base}/${id}`).expect(200)).body.data.status).toBe('open');
    });

    it('a change of status voids a claim taken before it', async () => {
      const snoozes = t.app.get(SnoozesRepository, { strict: false });
      const id = await newConversation();
      const until = Date.now() + HOUR;
      await patch(id, { status: 'snoozed', snoozed_until: new Date(until).toISOString() }).expect(
        200,
      );
      const claim = await snoozes.claim(id, 60_000, new Date(until + HOUR));
      await patch(id, { status: 'resolved' }).expect(200);
      expect(await snoozes.reopen(id, claim!.token, new Date(), async () => undefined)).toBeNull();
      expect((await t.api().get(`${base}/${id}`).expect(200)).body.data.status).toBe('resolved');
    });
  });
});
