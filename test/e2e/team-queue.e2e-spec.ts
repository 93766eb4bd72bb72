import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { TeamsService } from '@/modules/auth/teams.service';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { recordSecret } from '../support/log-capture';

const QUEUE = `${API}/conversations`;

/** docs/api.md §5a: the team queue across agents, its filters and its counts. */
describe('the team queue', () => {
  let t: TestApp;
  let ada: string;
  let ben: string;
  /** Ada's: pending, assigned, labelled refund, urgent. */
  let claimed: string;
  /** Ada's: open, unassigned, the AI paused. */
  let paused: string;
  /** Ben's: resolved, labelled vip, high. */
  let resolved: string;
  /** Ben's: open, untouched. */
  let fresh: string;
  let foreign: string;
  let intruderKey: string;
  let limited: string;

  async function conversation(agentId: string, user: string, key = t.key): Promise<string> {
    return (await sendAs(t, agentId, user, 'Hello', {}, key)).conversation_id;
  }

  async function ids(query: string, key = t.key): Promise<string[]> {
    const res = await t.api(key).get(`${QUEUE}?limit=100&${query}`).expect(200);
    expect(res.body.meta.total_count).toBe(res.body.data.length);
    return res.body.data.map((c: { id: string }) => c.id).sort();
  }

  const sorted = (...values: string[]) => [...values].sort();

  beforeAll(async () => {
    t = await startTestApp();
    const rules = [{ name: 'Greeting', trigger: 'hello', response: 'Hi!', enabled: true }];
    const workflow = await createWorkflow(t, { name: 'Shop', rules });
    ada = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    ben = (await createAgent(t, { workflow_id: workflow.id, name: 'Ben' })).id;
    claimed = await conversation(ada, 'queue-1');
    paused = await conversation(ada, 'queue-2');
    resolved = await conversation(ben, 'queue-3');
    fresh = await conversation(ben, 'queue-4');
    const intruder = await t.createKey('queue-intruder', ['*']);
    intruderKey = intruder.key;
    const theirs = await createWorkflow(t, { name: 'Theirs', rules }, intruderKey);
    const theirAgent = await createAgent(t, { workflow_id: theirs.id, name: 'Eve' }, intruderKey);
    foreign = await conversation(theirAgent.id, 'queue-5', intruderKey);
    await repliesSettled(t);
    const api = t.api();
    await api
      .patch(`${conversationsPath(ada)}/${claimed}`)
      .send({
        status: 'pending',
        assignee: { id: 'op-1', name: 'Kemi' },
        labels: ['refund'],
        priority: 'urgent',
      })
      .expect(200);
    await api
      .patch(`${conversationsPath(ada)}/${paused}/ai-status`)
      .send({ is_ai_chat_paused: true })
      .expect(200);
    await api
      .patch(`${conversationsPath(ben)}/${resolved}`)
      .send({ status: 'resolved', labels: ['vip'], priority: 'high' })
      .expect(200);
    const teamId = (await t.app.get(TeamsService).findByName('default'))!.id;
    const created = await t.app
      .get(ApiKeysService)
      .createForAgents(teamId, ['conversations:read'], [ben]);
    if ('notAgents' in created) {
      throw new Error('Ben is not an agent of the team');
    }
    recordSecret('api key', created.key);
    limited = created.key;
  });
  afterAll(() => t.close());

  it("lists every agent's conversations of the team, and only the team's", async () => {
    expect(await ids('')).toEqual(sorted(claimed, paused, resolved, fresh));
    expect(await ids('', intruderKey)).toEqual([foreign]);
  });

  it('filters by agent, status, assignee, label, channel, flags, priority and update time', async () => {
    expect(await ids(`agent_id=${ada}`)).toEqual(sorted(claimed, paused));
    expect(await ids('status=open')).toEqual(sorted(paused, fresh));
    expect(await ids('status=resolved')).toEqual([resolved]);
    expect(await ids('assignee_id=op-1')).toEqual([claimed]);
    expect(await ids('assignee_id=none')).toEqual(sorted(paused, resolved, fresh));
    expect(await ids('label=refund')).toEqual([claimed]);
    expect(await ids('label=vip')).toEqual([resolved]);
    expect(await ids('label=nothing')).toEqual([]);
    expect(await ids('channel=webchat')).toEqual(sorted(claimed, paused, resolved, fresh));
    expect(await ids('channel=test_webchat')).toEqual([]);
    expect(await ids('is_ai_chat_paused=true')).toEqual([paused]);
    expect(await ids('needs_attention=true')).toEqual([]);
    expect(await ids('priority=high')).toEqual([resolved]);
    expect(await ids(`updated_after=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    expect(await ids('updated_after=2000-01-01T00:00:00Z')).toHaveLength(4);
    expect(await ids(`agent_id=${ben}&status=open&assignee_id=none`)).toEqual([fresh]);
  });

  it('sorts by priority and takes the same filters on the per-agent list', async () => {
    const res = await t.api().get(`${QUEUE}?sort=-priority`).expect(200);
    expect(res.body.data.slice(0, 2).map((c: { id: string }) => c.id)).toEqual([claimed, resolved]);
    const perAgent = await t
      .api()
      .get(`${conversationsPath(ada)}?status=pending&assignee_id=op-1&label=refund`)
      .expect(200);
    expect(perAgent.body.data.map((c: { id: string }) => c.id)).toEqual([claimed]);
    const other = await t
      .api()
      .get(`${conversationsPath(ada)}?agent_id=${ben}`)
      .expect(200);
    expect(other.body.data).toEqual([]);
  });

  it('counts by status, attention and assignee, as the list does', async () => {
    const counts = await t.api().get(`${QUEUE}/counts`).expect(200);
    expect(counts.body.data).toEqual({
      open: 2,
      pending: 1,
      snoozed: 0,
      resolved: 1,
      needs_attention: 0,
      unassigned: 3,
    });
    const ofAda = await t.api().get(`${QUEUE}/counts?agent_id=${ada}&label=refund`).expect(200);
    expect(ofAda.body.data).toMatchObject({ open: 0, pending: 1, unassigned: 0 });
    for (const status of ['open', 'pending', 'snoozed', 'resolved']) {
      expect(await ids(`status=${status}`)).toHaveLength(counts.body.data[status]);
    }
    expect((await ids('assignee_id=none')).length).toBe(counts.body.data.unassigned);
    const theirs = await t.api(intruderKey).get(`${QUEUE}/counts`).expect(200);
    expect(theirs.body.data).toMatchObject({ open: 1, pending: 0, resolved: 0, unassigned: 1 });
  });

  it("shows a key limited to one agent only that agent's conversations and counts", async () => {
    expect(await ids('', limited)).toEqual(sorted(resolved, fresh));
    expect(await ids(`agent_id=${ada}`, limited)).toEqual([]);
    const counts = await t.api(limited).get(`${QUEUE}/counts`).expect(200);
    expect(counts.body.data).toEqual({
      open: 1,
      pending: 0,
      snoozed: 0,
      resolved: 1,
      needs_attention: 0,
      unassigned: 2,
    });
  });

  it('refuses unknown parameters, bad values and a status on the counts with a 400', async () => {
    const api = t.api();
    for (const query of [
      'assignee=me',
      'status=closed',
      'priority=extreme',
      'agent_id=not-a-uuid',
      'updated_after=yesterday',
      'needs_attention=maybe',
      'sort=-name',
    ]) {
      const res = await api.get(`${QUEUE}?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
    }
    const unknown = await api.get(`${QUEUE}?assignee=me`).expect(400);
    expect(JSON.stringify(unknown.body)).toContain('assignee');
    await api.get(`${QUEUE}/counts?status=open`).expect(400);
    await api.get(`${QUEUE}/counts?page=2`).expect(400);
    await api.get(`${conversationsPath(ada)}?priority=extreme`).expect(400);
  });

  it('matches a label as a whole, quotes and accents included', async () => {
    const label = 'Rückruf "dringend"';
    await t
      .api()
      .patch(`${conversationsPath(ben)}/${fresh}`)
      .send({ labels: [label, 'vip-gold'] })
      .expect(200);
    expect(await ids(`label=${encodeURIComponent(label)}`)).toEqual([fresh]);
    expect(await ids(`label=${encodeURIComponent('"dringend"')}`)).toEqual([]);
    expect(await ids('label=vip-gold')).toEqual([fresh]);
    expect(await ids('label=vip')).toEqual([resolved]);
  });

  it('lists a label in last-message order, each new message moving its conversation up', async () => {
    const api = t.api();
    const order = async (query: string, key = t.key) => {
      const res = await t.api(key).get(`${QUEUE}?${query}`).expect(200);
      return [res.body.meta.total_count, res.body.data.map((c: { id: string }) => c.id)];
    };
    await api
      .patch(`${conversationsPath(ada)}/${paused}`)
      .send({ labels: ['callback'] })
      .expect(200);
    await api
      .patch(`${conversationsPath(ben)}/${fresh}`)
      .send({ labels: ['callback'] })
      .expect(200);
    await sendAs(t, ada, 'queue-2', 'Hello again');
    await repliesSettled(t);
    expect(await order('label=callback')).toEqual([2, [paused, fresh]]);
    await sendAs(t, ben, 'queue-4', 'Hello again');
    await repliesSettled(t);
    expect(await order('label=callback')).toEqual([2, [fresh, paused]]);
    expect(await order('label=callback&sort=last_message_at')).toEqual([2, [paused, fresh]]);
    expect(await order('label=callback&limit=1&page=2')).toEqual([2, [paused]]);
    expect(await order('label=callback&status=open&assignee_id=none')).toEqual([
      2,
      [fresh, paused],
    ]);
    expect(await order(`label=callback&agent_id=${ada}`)).toEqual([1, [paused]]);
    expect(await order('label=callback&is_ai_chat_paused=true')).toEqual([1, [paused]]);
    expect(await order('label=callback', limited)).toEqual([1, [fresh]]);
    expect(await order('label=callback', intruderKey)).toEqual([0, []]);
    expect(await order('label=callback&limit=1&page=3')).toEqual([2, []]);
  });
});
