import { createAgent } from './agents';
import { API, TestApp } from './test-app';
import { createWorkflow } from './workflows';

/** One record of every kind a path can name, all of one team. */
export interface TeamRecords {
  workflows: string;
  agents: string;
  knowledge_bases: string;
  bimpeai: string;
  custom_api: string;
  mcp_server: string;
  pipedream: string;
  tools: string;
  conversations: string;
  messages: string;
}

/** Creates one record of every kind in the team of `key`. */
export async function seedTeam(t: TestApp, key: string): Promise<TeamRecords> {
  const workflow = await createWorkflow(t, { name: 'Private workflow' }, key);
  const agent = await createAgent(t, { workflow_id: workflow.id }, key);
  const post = async (path: string, body: object) =>
    (await t.api(key).post(`${API}/agents/${agent.id}${path}`).send(body).expect(201)).body.data;
  const kb = await post('/knowledge_bases', { type: 'text', name: 'Secret', content: 'Secret' });
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
  return {
    workflows: workflow.id,
    agents: agent.id,
    knowledge_bases: kb.id,
    bimpeai: stripe.id,
    custom_api: api.id,
    mcp_server: mcp.id,
    pipedream: pipedream.id,
    tools: tool.id,
    conversations: message.conversation_id,
    messages: message.id,
  };
}
