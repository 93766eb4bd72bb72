import { adminCli } from './app-process';
import { AGENT, API, CONVERSATION, INTEGRATIONS, Owner, Resources } from './resources';

/** The keys the fuzzer authenticates with, each a different path through authentication. */
export interface Keys {
  own: string;
  other: string;
  readOnly: string;
  expired: string;
  revoked: string;
}

class Client {
  constructor(
    private readonly origin: string,
    private readonly key: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.origin}${API}${path}`, {
      method,
      headers: { 'X-Api-Key': this.key, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) {
      throw new Error(`seeding: ${method} ${path} answered ${res.status} ${text}`);
    }
    return JSON.parse(text).data;
  }
}

/** Creates the second team and the odd keys with the admin CLI, as an operator would. */
export async function createKeys(env: Record<string, string>, ownKey: string): Promise<Keys> {
  const create = async (team: string, scopes: string, extra: string[] = []) =>
    JSON.parse(
      await adminCli(env, [
        'keys',
        'create',
        '--team',
        team,
        '--scopes',
        scopes,
        '--json',
        ...extra,
      ]),
    );
  await adminCli(env, ['teams', 'create', 'fuzz-other', '--json']);
  const other = await create('fuzz-other', '*');
  const readOnly = await create('default', 'workflows:read,agents:read,conversations:read');
  const expired = await create('default', '*', ['--expires-at', '2020-01-01T00:00:00Z']);
  const revoked = await create('default', '*');
  await adminCli(env, ['keys', 'revoke', revoked.id]);
  return {
    own: ownKey,
    other: other.key,
    readOnly: readOnly.key,
    expired: expired.key,
    revoked: revoked.key,
  };
}

/** Per agent: knowledge bases, one integration of each family, a tool, conversations. */
async function seedAgent(
  api: Client,
  resources: Resources,
  owner: Owner,
  workflowId: string,
  n: number,
) {
  const agent = await api.call('POST', '/agents', {
    workflow_id: workflowId,
    name: `Fuzz agent ${n}`,
    description: 'Seeded for the contract fuzzer',
  });
  const agentId = String(agent.id);
  resources.add(AGENT, owner, { agentId });
  const kbs = [
    { type: 'text', name: 'Delivery', content: 'We deliver within one day in Lagos.' },
    { type: 'url', name: 'Site', url: 'http://127.0.0.1:9/faq' },
  ];
  for (const body of kbs) {
    const kb = await api.call('POST', `/agents/${agentId}/knowledge_bases`, body);
    resources.add(`${AGENT}/knowledge_bases/{kbId}`, owner, { agentId, kbId: String(kb.id) });
  }
  const builtIn = await api.call('POST', `/agents/${agentId}/integrations/bimpeai/configure`, {
    type: 'paystack',
    secret_key: 'sk_test_fuzz',
  });
  resources.add(`${INTEGRATIONS}/bimpeai/{integrationId}`, owner, {
    agentId,
    integrationId: String(builtIn.id),
  });
  const customApi = await api.call('POST', `/agents/${agentId}/integrations/custom_api/configure`, {
    name: 'Orders',
    base_url: 'http://127.0.0.1:9/api',
  });
  const customApiId = String(customApi.id);
  resources.add(`${INTEGRATIONS}/custom_api/{integrationId}`, owner, {
    agentId,
    integrationId: customApiId,
  });
  const tool = await api.call(
    'POST',
    `/agents/${agentId}/integrations/custom_api/${customApiId}/tools`,
    {
      name: 'Get order',
      http_method: 'GET',
      url_template: '/orders/{order_id}',
    },
  );
  resources.add(`${INTEGRATIONS}/custom_api/{integrationId}/tools/{toolId}`, owner, {
    agentId,
    integrationId: customApiId,
    toolId: String(tool.id),
  });
  const mcp = await api.call('POST', `/agents/${agentId}/integrations/mcp_server/configure`, {
    name: 'Tools',
    server_url: 'http://127.0.0.1:9/mcp',
  });
  resources.add(`${INTEGRATIONS}/mcp_server/{integrationId}`, owner, {
    agentId,
    integrationId: String(mcp.id),
  });
  const pipedream = await api.call('POST', `/agents/${agentId}/integrations/pipedream/configure`, {
    app_slug: 'google_drive',
  });
  resources.add(`${INTEGRATIONS}/pipedream/{integrationId}`, owner, {
    agentId,
    integrationId: String(pipedream.id),
  });
  for (const action of await api.call('GET', `/agents/${agentId}/actions`)) {
    resources.add('actions', owner, { actionId: String(action.id) });
  }
  for (let i = 0; i < 2; i++) {
    const message = await api.call('POST', `/agents/${agentId}/conversations/messages`, {
      message: 'Hello, where is my order?',
      channel_type: 'webchat',
      channel_user_id: `fuzz-visitor-${n}-${i}`,
    });
    const values = { agentId, conversationId: String(message.conversation_id) };
    resources.add(CONVERSATION, owner, values);
    resources.add(`${CONVERSATION}/messages/{messageId}`, owner, {
      ...values,
      messageId: String(message.id),
    });
  }
}

async function seedTeam(api: Client, resources: Resources, owner: Owner, agents: number) {
  const workflowIds: string[] = [];
  for (const visibility of ['private', 'public']) {
    const workflow = await api.call('POST', '/workflows', {
      name: `Fuzz ${visibility} workflow`,
      visibility,
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hello!' }],
      flows: [{ name: 'Orders', trigger_keywords: [{ keyword: 'order' }] }],
    });
    workflowIds.push(String(workflow.id));
    resources.add(`${API}/workflows/{id}`, owner, { id: String(workflow.id) });
  }
  for (let n = 0; n < agents; n++) {
    await seedAgent(api, resources, owner, workflowIds[n % workflowIds.length], n);
  }
}

/** Real records of both teams, so that path ids are often real, sometimes another team's. */
export async function seedResources(origin: string, keys: Keys): Promise<Resources> {
  const resources = new Resources();
  await seedTeam(new Client(origin, keys.own), resources, 'own', 3);
  await seedTeam(new Client(origin, keys.other), resources, 'other', 1);
  return resources;
}
