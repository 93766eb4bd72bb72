import { createAgent } from './agents';
import { repliesSettled, sendAs } from './conversations';
import { configureIntegration, createTool, IntegrationFamily } from './integrations';
import { createKnowledgeBase } from './knowledge-bases';
import { createPhoneNumber } from './phone-numbers';
import { pollUntil } from '../support/wait';
import { API, TestApp } from './test-app';
import { createWebhook, deliveriesOf, WEBHOOKS } from './webhooks';
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
  'phone-numbers': string;
  webhooks: string;
  deliveries: string;
  'action-runs': string;
  contacts: string;
  /**
   * A channel type: channels are named by their type under their agent (telephony, whose routes
   * are the generic `{type}` ones).
   */
  channels: string;
  /** An attachment index: the seeded messages have none, so it is never found. */
  attachments: string;
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
  const number = await createPhoneNumber(t, key);
  const { webhook, delivery } = await seedWebhook(t, key);
  await repliesSettled(t);
  const runs = await t.api(key).get(`${API}/agents/${agent.id}/action-runs`).expect(200);
  const conversation = await t
    .api(key)
    .get(`${API}/agents/${agent.id}/conversations/${message.conversation_id}`)
    .expect(200);
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
    'phone-numbers': number.id,
    webhooks: webhook,
    deliveries: delivery,
    'action-runs': runs.body.data[0].id,
    contacts: conversation.body.data.contact_id,
    channels: 'telephony',
    attachments: '0',
  };
}

/**
 * An endpoint nobody listens on, with one delivery whose first attempt has failed: its next one
 * is at least 15 s away (WEBHOOK_FIRST_RETRY_S), so it stays as it is while a test reads it.
 */
async function seedWebhook(t: TestApp, key: string) {
  const webhook = await createWebhook(t, 'http://127.0.0.1:9/hooks', ['agent.status_changed'], key);
  const ping = await t.api(key).post(`${WEBHOOKS}/${webhook.id}/test`).expect(200);
  const { value } = await pollUntil(
    () => deliveriesOf(t, webhook.id, key),
    (log) => log[0]?.attempts === 1 && log[0]?.last_error !== null,
    5_000,
    20,
  );
  if (value[0]?.attempts !== 1) {
    throw new Error('the seeded webhook delivery was not attempted');
  }
  return { webhook: webhook.id, delivery: String(ping.body.data.id) };
}
