import { createAgent } from './agents';
import { repliesSettled, sendAs } from './conversations';
import { configureIntegration, createTool, IntegrationFamily } from './integrations';
import { createKnowledgeBase } from './knowledge-bases';
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
  'action-runs': string;
}

/** Creates one record of every kind in the team of `key`. */
export async function seedTeam(t: TestApp, key: string): Promise<TeamRecords> {
  const workflow = await createWorkflow(t, { name: 'Private workflow' }, key);
  const agent = await createAgent(t, { workflow_id: workflow.id }, key);
  const kb = await createKnowledgeBase(
    t,
    agent.id,
    { type: 'text', name: 'Secret', content: 'Secret' },
    key,
  );
  const configure = (family: IntegrationFamily, body: Record<string, unknown>) =>
    configureIntegration(t, agent.id, family, body, key);
  const stripe = await configure('bimpeai', { type: 'stripe', secret_key: 'sk_secret' });
  const api = await configure('custom_api', { name: 'API', base_url: 'http://127.0.0.1:9' });
  const tool = await createTool(
    t,
    agent.id,
    api.id,
    { name: 'Tool', http_method: 'GET', url_template: '/t', require_human_approval: true },
    key,
  );
  // A rule that runs the tool: the message below leaves a run waiting for approval.
  await t
    .api(key)
    .patch(`${API}/workflows/${workflow.id}`)
    .send({ rules: [{ name: 'Run', trigger: 'secret', action: tool.action_name, enabled: true }] })
    .expect(200);
  const mcp = await configure('mcp_server', { name: 'MCP', server_url: 'http://127.0.0.1:9/mcp' });
  const pipedream = await configure('pipedream', { app_slug: 'slack' });
  const message = await sendAs(t, agent.id, 'victim', 'Secret', {}, key);
  await repliesSettled(t);
  const runs = await t.api(key).get(`${API}/agents/${agent.id}/action-runs`).expect(200);
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
    'action-runs': runs.body.data[0].id,
  };
}
