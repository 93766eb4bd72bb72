import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { Scope } from '@/modules/auth/scopes';
import { TeamsService } from '@/modules/auth/teams.service';
import { createAgent } from '../factories/agents';
import { conversationsPath, issueTicket, repliesSettled, sendAs } from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { randomApiKey } from '../support/keys';
import { recordSecret } from '../support/log-capture';

/** docs/api.md §2: a key limited to some agents reaches those agents and nothing team-wide. */
describe('keys limited to agents', () => {
  let t: TestApp;
  let teamId: string;
  let workflowId: string;
  let own: Record<string, any>;
  let sibling: Record<string, any>;
  let third: Record<string, any>;
  let ownConversation: string;
  let siblingConversation: string;
  let limited: string;

  /** A key of the bootstrap key's team, reaching only `agentIds`, made as `keys create --agents` makes it. */
  async function limitedKey(agentIds: string[], scopes: Scope[] = ['*']) {
    const created = await t.app.get(ApiKeysService).createForAgents(teamId, scopes, agentIds);
    if ('notAgents' in created) {
      throw new Error(`not agents: ${created.notAgents.join(', ')}`);
    }
    recordSecret('api key', created.key);
    return created;
  }

  beforeAll(async () => {
    t = await startTestApp();
    teamId = (await t.app.get(TeamsService).findByName('default'))!.id;
    const workflow = await createWorkflow(t, { name: 'Shared workflow' });
    workflowId = workflow.id;
    own = await createAgent(t, { workflow_id: workflowId, name: 'Own' });
    sibling = await createAgent(t, { workflow_id: workflowId, name: 'Sibling' });
    third = await createAgent(t, { workflow_id: workflowId, name: 'Third' });
    ownConversation = (await sendAs(t, own.id, 'customer-a', 'Hello')).conversation_id;
    siblingConversation = (await sendAs(t, sibling.id, 'customer-b', 'Hello')).conversation_id;
    await createKnowledgeBase(t, sibling.id, { type: 'text', name: 'Prices', content: 'x' });
    await repliesSettled(t);
    limited = (await limitedKey([own.id])).key;
  });
  afterAll(() => t.close());

  it('works on its own agent, its conversations, messages, stream tickets and runs', async () => {
    const api = t.api(limited);
    await api.get(`${API}/agents/${own.id}`).expect(200);
    await api.get(conversationsPath(own.id)).expect(200);
    await api.get(`${conversationsPath(own.id)}/${ownConversation}`).expect(200);
    await api.get(`${conversationsPath(own.id)}/${ownConversation}/messages`).expect(200);
    await api
      .post(`${conversationsPath(own.id)}/messages`)
      .send({ message: 'Hi', channel_type: 'webchat', channel_user_id: 'customer-c' })
      .expect(201);
    await api.get(`${API}/agents/${own.id}/action-runs`).expect(200);
    await api.get(`${API}/agents/${own.id}/knowledge_bases`).expect(200);
    await api.patch(`${API}/agents/${own.id}`).send({ description: 'Renamed' }).expect(200);
    const ticket = await issueTicket(t, own.id, ownConversation, limited);
    const stream = await fetch(
      `${t.url}${conversationsPath(own.id)}/${ownConversation}/stream?ticket=${ticket}`,
    );
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    await repliesSettled(t);
  });

  it('answers 404, as for an agent that does not exist, on every route of another agent of its team', async () => {
    const api = t.api(limited);
    const agent = `${API}/agents/${sibling.id}`;
    const conversation = `${conversationsPath(sibling.id)}/${siblingConversation}`;
    const refused = [
      api.get(agent),
      api.patch(agent).send({ name: 'Taken over' }),
      api.delete(agent),
      api.patch(`${agent}/live-status`).send({ status: 'live' }),
      api.get(`${agent}/channels`),
      api.get(`${agent}/flows`),
      api.get(`${agent}/deployment/agent-test-code`),
      api.get(`${agent}/knowledge_bases`),
      api.post(`${agent}/knowledge_bases`).send({ type: 'text', name: 'x', content: 'y' }),
      api.get(`${agent}/integrations`),
      api.get(`${agent}/actions`),
      api.get(`${agent}/action-runs`),
      api.get(`${agent}/calls`),
      api.get(conversationsPath(sibling.id)),
      api
        .post(`${conversationsPath(sibling.id)}/messages`)
        .send({ message: 'x', channel_type: 'webchat', channel_user_id: 'u' }),
      api.get(conversation),
      api.get(`${conversation}/messages`),
      api.post(`${conversation}/messages`).send({ message: 'As staff', role: 'assistant' }),
      api.patch(`${conversation}/ai-status`).send({ is_ai_chat_paused: true }),
      api.post(`${conversation}/stream-ticket`),
    ];
    for (const request of refused) {
      const res = await request;
      expect({ status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        status: 404,
        code: 'not_found',
        message: 'Agent not found',
      });
    }
    const untouched = await t.api().get(`${API}/agents/${sibling.id}`).expect(200);
    expect(untouched.body.data.name).toBe('Sibling');
  });

  it("opens no stream of another agent's conversation, even with a ticket of its own", async () => {
    const ticket = await issueTicket(t, own.id, ownConversation, limited);
    const res = await fetch(
      `${t.url}${conversationsPath(sibling.id)}/${siblingConversation}/stream?ticket=${ticket}`,
    );
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });

  it('lists only its agents, with the total counted likewise', async () => {
    const all = await t.api().get(`${API}/agents`).expect(200);
    expect(all.body.meta.total_count).toBeGreaterThanOrEqual(3);
    const mine = await t.api(limited).get(`${API}/agents?limit=1`).expect(200);
    expect(mine.body.data.map((agent: { id: string }) => agent.id)).toEqual([own.id]);
    expect(mine.body.meta.total_count).toBe(1);
    const two = (await limitedKey([own.id, third.id], ['agents:read'])).key;
    const listed = await t.api(two).get(`${API}/agents?sort=name`).expect(200);
    expect(listed.body.data.map((agent: { name: string }) => agent.name)).toEqual([
      'Own',
      'Third',
    ]);
    expect(listed.body.meta.total_count).toBe(2);
    const searched = await t.api(two).get(`${API}/agents?search=Sibling`).expect(200);
    expect(searched.body.meta.total_count).toBe(0);
  });

  it('is refused every team-wide route with 403 forbidden that says why', async () => {
    const api = t.api(limited);
    const refused = [
      api.post(`${API}/agents`).send({ workflow_id: workflowId, name: 'x', description: 'y' }),
      api.post(`${API}/workflows`).send({ name: 'x' }),
      api.patch(`${API}/workflows/${workflowId}`).send({ name: 'Taken over' }),
      api.delete(`${API}/workflows/${workflowId}`),
      api.post(`${API}/workflows/clone`).send({ source_workflow_id: workflowId }),
      api.get(`${API}/webhooks`),
      api.post(`${API}/webhooks`).send({ url: 'https://example.com/h', events: ['*'] }),
      api.get(`${API}/phone-numbers`),
      api.get(`${API}/phone-numbers/request`),
      api.get(`${API}/calls`),
      api.get(`${API}/contacts`),
    ];
    for (const request of refused) {
      const res = await request;
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 403,
        code: 'forbidden',
      });
      expect(res.body.message).toMatch(/^This key is limited to some agents/);
    }
    const workflow = await t.api().get(`${API}/workflows/${workflowId}`).expect(200);
    expect(workflow.body.data.name).toBe('Shared workflow');
  });

  it('still reads workflows, as its scopes allow', async () => {
    await t.api(limited).get(`${API}/workflows`).expect(200);
    await t.api(limited).get(`${API}/workflows/${workflowId}`).expect(200);
    const readOnly = (await limitedKey([own.id], ['agents:read'])).key;
    const res = await t.api(readOnly).get(`${API}/workflows`).expect(403);
    expect(res.body.code).toBe('insufficient_scope');
  });

  it('keeps its scopes on its own agents', async () => {
    const reader = (await limitedKey([own.id], ['agents:read'])).key;
    await t.api(reader).get(`${API}/agents/${own.id}`).expect(200);
    const res = await t.api(reader).get(conversationsPath(own.id)).expect(403);
    expect(res.body.code).toBe('insufficient_scope');
  });

  it('is refused at creation for an agent of another team or none, and keeps its limit when rotated', async () => {
    const keys = t.app.get(ApiKeysService);
    const stranger = await t.createKey('stranger', ['*']);
    const theirs = await createAgent(t, {}, stranger.key);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await keys.createForAgents(teamId, ['*'], [own.id, theirs.id, missing])).toEqual({
      notAgents: [theirs.id, missing],
    });
    expect(await keys.createForAgents(teamId, ['*'], [])).toEqual({ notAgents: [] });

    const created = await limitedKey([sibling.id]);
    const rotated = await keys.rotate(created.record.id, new Date(Date.now() + 60_000));
    recordSecret('api key', rotated!.created.key);
    expect(rotated!.created.record.agentIds).toEqual([sibling.id]);
    await t.api(rotated!.created.key).get(`${API}/agents/${sibling.id}`).expect(200);
    await t.api(rotated!.created.key).get(`${API}/agents/${own.id}`).expect(404);
  });

  it('answers 401 api_key_invalid to a publishable pk_ key on every console route', async () => {
    const publishable = `pk_${randomApiKey().slice(3)}`;
    const paths = [
      `${API}/agents`,
      `${API}/agents/${own.id}`,
      `${conversationsPath(own.id)}/${ownConversation}/messages`,
      `${API}/workflows`,
      `${API}/webhooks`,
    ];
    for (const path of paths) {
      for (const header of ['Authorization', 'X-Api-Key']) {
        const value = header === 'Authorization' ? `Bearer ${publishable}` : publishable;
        const res = await t.http().get(path).set(header, value);
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 401,
          code: 'api_key_invalid',
        });
      }
    }
  });
});
