import { createAgent } from '../factories/agents';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { issueTicket } from '../factories/conversations';
import { bearer } from '../support/bearer';
import { Route, routesOf } from '../support/routes';

/** A valid body for every write route under /agents, so that a refusal can only be the 404. */
const BODIES: Record<string, object> = {
  'patch /agents/:agentId': { name: 'Taken over' },
  'patch /agents/:agentId/live-status': { status: 'live' },
  'post /agents/:agentId/knowledge_bases': { type: 'text', name: 'x', content: 'y' },
  'patch /agents/:agentId/knowledge_bases/:kbId': { name: 'x' },
  'post /agents/:agentId/integrations/bimpeai/configure': { type: 'stripe', secret_key: 'sk' },
  'post /agents/:agentId/integrations/custom_api/configure': { name: 'x' },
  'post /agents/:agentId/integrations/custom_api/:integrationId/tools': {
    name: 'x',
    http_method: 'GET',
    url_template: '/x',
  },
  'post /agents/:agentId/integrations/mcp_server/configure': {
    name: 'x',
    server_url: 'http://127.0.0.1:9/mcp',
  },
  'post /agents/:agentId/integrations/mcp_server/:integrationId/discover': {},
  'post /agents/:agentId/integrations/mcp_server/:integrationId/test': {},
  'post /agents/:agentId/integrations/pipedream/configure': { app_slug: 'slack' },
  'post /agents/:agentId/conversations/messages': {
    message: 'x',
    channel_type: 'webchat',
    channel_user_id: 'u',
  },
  'patch /agents/:agentId/conversations/:conversationId/ai-status': { is_ai_chat_paused: true },
  'post /agents/:agentId/conversations/:conversationId/messages': { message: 'x' },
  'post /agents/:agentId/conversations/:conversationId/stream-ticket': {},
  'post /agents/:agentId/actions/enable': { action_ids: [] },
  'post /agents/:agentId/actions/disable': { action_ids: [] },
};

/** Call endpoints answer 501 to everyone after auth and scope (API.md §6); nothing to hide there. */
const NOT_TENANT_ROUTES = /\/calls(\/|$)/;

describe('tenant isolation', () => {
  let t: TestApp;
  let intruder: TeamKey;
  let ids: Record<string, string>;
  /** A ticket the intruder got for a conversation of its own: wrong for every other path. */
  let intruderTicket: () => Promise<string>;

  beforeAll(async () => {
    t = await startTestApp();
    intruder = await t.createKey('intruder', ['*']);
    const agent = await createAgent(t);
    const base = `${API}/agents/${agent.id}`;
    const post = async (path: string, body: object) =>
      (await t.http().post(`${base}${path}`).set(bearer(t.key)).send(body).expect(201)).body.data;
    const kb = await post('/knowledge_bases', {
      type: 'text',
      name: 'Secret',
      content: 'Secret text',
    });
    const stripe = await post('/integrations/bimpeai/configure', {
      type: 'stripe',
      secret_key: 'sk_secret',
    });
    const api = await post('/integrations/custom_api/configure', {
      name: 'API',
      base_url: 'http://127.0.0.1:9',
    });
    const tool = await post(`/integrations/custom_api/${api.id}/tools`, {
      name: 'Tool',
      http_method: 'GET',
      url_template: '/t',
    });
    const mcp = await post('/integrations/mcp_server/configure', {
      name: 'MCP',
      server_url: 'http://127.0.0.1:9/mcp',
    });
    const pipedream = await post('/integrations/pipedream/configure', { app_slug: 'slack' });
    const message = await post('/conversations/messages', {
      message: 'Secret',
      channel_type: 'webchat',
      channel_user_id: 'victim',
    });
    ids = {
      agentId: agent.id,
      kbId: kb.id,
      toolId: tool.id,
      bimpeai: stripe.id,
      custom_api: api.id,
      mcp_server: mcp.id,
      pipedream: pipedream.id,
      conversationId: message.conversation_id,
      messageId: message.id,
    };
    const ownAgent = await createAgent(t, {}, intruder.key);
    const own = await t
      .http()
      .post(`${API}/agents/${ownAgent.id}/conversations/messages`)
      .set(bearer(intruder.key))
      .send({ message: 'mine', channel_type: 'webchat', channel_user_id: 'me' })
      .expect(201);
    intruderTicket = () => issueTicket(t, ownAgent.id, own.body.data.conversation_id, intruder.key);
  });
  afterAll(() => t.close());

  function concretePath(route: Route): string {
    const family = /\/integrations\/(\w+)\//.exec(route.path)?.[1];
    return route.path.replace(/:(\w+)/g, (_, name: string) =>
      name === 'integrationId' ? ids[family!] : ids[name],
    );
  }

  it('answers 404 to another team on every agent route, and changes nothing', async () => {
    const routes = routesOf(t).filter(
      (route) => route.path.includes(':agentId') && !NOT_TENANT_ROUTES.test(route.path),
    );
    expect(routes.length).toBeGreaterThan(25);
    const outcomes: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.path.slice(API.length)}`;
      const needsBody = route.method === 'post' || route.method === 'patch';
      if (needsBody && !BODIES[key]) {
        outcomes.push(`${key}: no sample body in BODIES`);
        continue;
      }
      const ticket = route.isPublic ? `?ticket=${await intruderTicket()}` : '';
      const res = await t
        .http()
        [route.method as 'get'](concretePath(route) + ticket)
        .set(bearer(intruder.key))
        .send(needsBody ? BODIES[key] : undefined);
      if (res.status !== 404 || res.body.code !== 'not_found') {
        outcomes.push(`${key}: ${res.status} ${res.body.code}`);
      }
    }
    expect(outcomes).toEqual([]);

    const owner = bearer(t.key);
    const agent = (await t.http().get(`${API}/agents/${ids.agentId}`).set(owner).expect(200)).body
      .data;
    expect(agent).toMatchObject({ name: 'Ada', status: 'development' });
    expect(agent.knowledge_bases).toHaveLength(1);
    expect(agent.integrations).toHaveLength(4);
    const conversation = await t
      .http()
      .get(`${API}/agents/${ids.agentId}/conversations/${ids.conversationId}`)
      .set(owner)
      .expect(200);
    expect(conversation.body.data.is_ai_chat_paused).toBe(false);
    await t
      .http()
      .get(`${API}/agents/${ids.agentId}/integrations/custom_api/${ids.custom_api}/tools`)
      .set(owner)
      .expect(200);
  });

  it("keeps another team's agents out of its list", async () => {
    const list = await t
      .http()
      .get(`${API}/agents?limit=100`)
      .set(bearer(intruder.key))
      .expect(200);
    expect(list.body.data.map((agent: { id: string }) => agent.id)).not.toContain(ids.agentId);
  });

  it("refuses another team's private workflow to a new agent", async () => {
    const privateWorkflow = await createWorkflow(t, { name: 'Private' });
    await t
      .http()
      .post(`${API}/agents`)
      .set(bearer(intruder.key))
      .send({ workflow_id: privateWorkflow.id, name: 'x', description: 'y' })
      .expect(404);
  });
});
