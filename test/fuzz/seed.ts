import { API, ApiClient } from '../support/api-client';
import { createKeyWithCli, createTeamWithCli, revokeKeyWithCli, runCli } from '../support/keys';
import { AGENT, CONVERSATION, INTEGRATIONS, Owner, Resources, WEBCHAT } from './resources';
import { connectWebchat, seedWebchat } from './seed-webchat';

/** The keys the fuzzer authenticates with, each a different path through authentication. */
export interface Keys {
  own: string;
  other: string;
  readOnly: string;
  expired: string;
  revoked: string;
  /** A key limited to one seeded agent (`keys create --agents`), made once agents exist. */
  agentLimited?: string;
}

/** Creates the second team and the odd keys with the admin CLI, as an operator would. */
export async function createKeys(env: Record<string, string>, ownKey: string): Promise<Keys> {
  await createTeamWithCli(env, 'fuzz-other');
  const other = await createKeyWithCli(env, 'fuzz-other', '*');
  const readOnly = await createKeyWithCli(
    env,
    'default',
    'workflows:read,agents:read,conversations:read',
  );
  const expired = await createKeyWithCli(env, 'default', '*', [
    '--expires-at',
    '2020-01-01T00:00:00Z',
  ]);
  const revoked = await createKeyWithCli(env, 'default', '*');
  await revokeKeyWithCli(env, revoked.id);
  return {
    own: ownKey,
    other: other.key,
    readOnly: readOnly.key,
    expired: expired.key,
    revoked: revoked.key,
  };
}

type Created = Array<[slot: string, values: Record<string, string>]>;

/** An agent with knowledge bases, one integration of each family, a tool and conversations. */
async function seedAgent(api: ApiClient, workflowId: string, n: number): Promise<Created> {
  const agent = await api.data('POST', '/agents', 201, {
    workflow_id: workflowId,
    name: `Fuzz agent ${n}`,
    description: 'Seeded for the contract fuzzer',
  });
  const agentId = String(agent.id);
  const under = `/agents/${agentId}`;
  const created: Created = [[AGENT, { agentId }]];
  const kbs = [
    { type: 'text', name: 'Delivery', content: 'We deliver within one day in Lagos.' },
    { type: 'url', name: 'Site', url: 'http://127.0.0.1:9/faq' },
  ];
  for (const body of kbs) {
    const kb = await api.data('POST', `${under}/knowledge_bases`, 201, body);
    created.push([`${AGENT}/knowledge_bases/{kbId}`, { agentId, kbId: String(kb.id) }]);
  }
  const integrations: Array<[string, Record<string, unknown>]> = [
    ['bimpeai', { type: 'paystack', secret_key: 'sk_test_fuzz' }],
    ['custom_api', { name: 'Orders', base_url: 'http://127.0.0.1:9/api' }],
    ['mcp_server', { name: 'Tools', server_url: 'http://127.0.0.1:9/mcp' }],
    ['pipedream', { app_slug: 'google_drive' }],
  ];
  for (const [family, body] of integrations) {
    const integration = await api.data(
      'POST',
      `${under}/integrations/${family}/configure`,
      201,
      body,
    );
    const integrationId = String(integration.id);
    created.push([`${INTEGRATIONS}/${family}/{integrationId}`, { agentId, integrationId }]);
    if (family === 'custom_api') {
      const tool = await api.data(
        'POST',
        `${under}/integrations/custom_api/${integrationId}/tools`,
        201,
        {
          name: 'Get order',
          http_method: 'GET',
          url_template: '/orders/{order_id}',
        },
      );
      const values = { agentId, integrationId, toolId: String(tool.id) };
      created.push([`${INTEGRATIONS}/custom_api/{integrationId}/tools/{toolId}`, values]);
    }
  }
  for (const action of await api.data('GET', `${under}/actions`, 200)) {
    created.push(['actions', { actionId: String(action.id) }]);
  }
  for (let i = 0; i < 2; i++) {
    const message = await api.data('POST', `${under}/conversations/messages`, 201, {
      message: 'Hello, where is my order?',
      channel_type: 'webchat',
      channel_user_id: `fuzz-visitor-${n}-${i}`,
    });
    const values = { agentId, conversationId: String(message.conversation_id) };
    created.push([CONVERSATION, values]);
    created.push([
      `${CONVERSATION}/messages/{messageId}`,
      { ...values, messageId: String(message.id) },
    ]);
    const conversation = await api.data(
      'GET',
      `${under}/conversations/${values.conversationId}`,
      200,
    );
    created.push([`${API}/contacts/{contactId}`, { contactId: String(conversation.contact_id) }]);
    await seedInbox(api, `${under}/conversations/${values.conversationId}`, i);
  }
  created.push(await seedWebchat(api, agentId));
  return created;
}

/** Operators the seeded conversations are assigned to, so `assignee_id` filters match some. */
export const SEEDED_ASSIGNEES = ['fuzz-operator-1', 'fuzz-operator-2'];
export const SEEDED_LABELS = ['vip', 'refund'];

/**
 * Gives a seeded conversation inbox state (status, assignee, label, priority) and a private note,
 * so that the team queue, its counts and their filters find rows, not only empty pages.
 */
async function seedInbox(api: ApiClient, conversation: string, i: number): Promise<void> {
  await api.data('PATCH', conversation, 200, {
    status: i % 2 === 0 ? 'pending' : 'open',
    assignee: { id: SEEDED_ASSIGNEES[i % 2], name: `Operator ${i}` },
    labels: [SEEDED_LABELS[i % 2]],
    priority: i % 2 === 0 ? 'high' : 'low',
  });
  await api.data('POST', `${conversation}/notes`, 201, { text: 'Seeded note' });
}

/**
 * A webhook endpoint (on a closed port: deliveries fail and are retried, never leave the machine)
 * with one delivery, its ping, so that the webhook and delivery routes see real ids.
 */
async function seedWebhook(api: ApiClient): Promise<Created> {
  const webhook = await api.data('POST', '/webhooks', 201, {
    url: 'http://127.0.0.1:9/hook',
    events: ['conversation.created', 'conversation.status_changed'],
  });
  const id = String(webhook.id);
  const delivery = await api.data('POST', `/webhooks/${id}/test`, 200);
  return [
    [`${API}/webhooks/{id}`, { id }],
    [`${API}/webhooks/{id}/deliveries/{deliveryId}`, { id, deliveryId: String(delivery.id) }],
  ];
}

const AGENTS_PER_TEAM: Record<Owner, number> = { own: 3, other: 1 };

/**
 * Keeps real records of both teams available, so that path ids are often real, sometimes
 * another team's: seeds them first, and tops a team up whenever the fuzzer deleted its agents.
 */
export class Seeder {
  readonly resources = new Resources();
  private readonly clients: Record<Owner, ApiClient>;
  private topping?: Promise<void>;
  private agentsSeeded = 0;

  constructor(origin: string, keys: Keys) {
    this.clients = {
      own: new ApiClient(origin, keys.own),
      other: new ApiClient(origin, keys.other),
    };
  }

  /** Adds agents (each on a workflow of its own) until each team has its share again. */
  replenish(): Promise<void> {
    this.topping ??= this.topUp().finally(() => (this.topping = undefined));
    return this.topping;
  }

  /**
   * One phone number per team: requested through the API, fulfilled with the admin CLI as an
   * operator would (numbers have no create route), so that their routes see real ids too.
   */
  async seedPhoneNumbers(env: Record<string, string>): Promise<void> {
    for (const [n, owner] of (['own', 'other'] as const).entries()) {
      const request = await this.clients[owner].data('POST', '/phone-numbers/request', 201, {
        business_name: `Fuzz business ${n}`,
        intended_use: 'Seeded for the contract fuzzer',
        region: 'ng',
        agent_count: 1,
        outbound_minutes: 0,
      });
      const e164 = `+234800000${String(n).padStart(4, '0')}`;
      const result = await runCli(
        ['phone-numbers', 'fulfil', String(request.id), e164, '--json'],
        env,
      );
      if (result.code !== 0) {
        throw new Error(`phone-numbers fulfil exited ${result.code}:\n${result.stderr}`);
      }
      const { number } = JSON.parse(result.stdout);
      this.resources.add(`${API}/phone-numbers/{id}`, owner, { id: String(number.id) });
    }
  }

  /**
   * A key of the own team limited to its first seeded agent: it reaches that agent's routes and
   * the queue (its agent's conversations only), and is refused (403) everything team-wide.
   */
  async createAgentLimitedKey(env: Record<string, string>, keys: Keys): Promise<void> {
    const agentId = this.resources.pick(AGENT, 'own', 0)!.values.agentId;
    keys.agentLimited = (await createKeyWithCli(env, 'default', '*', ['--agents', agentId])).key;
  }

  /**
   * Connects the agent's web chat again after the run disconnected it (a new key: the old one was
   * forgotten), so that the widget routes keep a working key; its visitors stay.
   */
  async reconnectWebchat(owner: Owner, agentId: string): Promise<void> {
    try {
      const chat = await connectWebchat(this.clients[owner], agentId);
      this.resources.update(WEBCHAT, agentId, chat);
    } catch {
      // The agent was deleted meanwhile: its bindings go with it.
    }
  }

  /** One webhook endpoint per team, with a delivery. */
  async seedWebhooks(): Promise<void> {
    for (const owner of ['own', 'other'] as const) {
      for (const [slot, values] of await seedWebhook(this.clients[owner])) {
        this.resources.add(slot, owner, values);
      }
    }
  }

  private async topUp(): Promise<void> {
    for (const owner of ['own', 'other'] as const) {
      while (this.resources.count(AGENT, owner) < AGENTS_PER_TEAM[owner]) {
        const n = this.agentsSeeded++;
        const workflow = await this.clients[owner].data('POST', '/workflows', 201, {
          name: `Fuzz workflow ${n}`,
          visibility: n % 2 === 0 ? 'private' : 'public',
          rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hello!' }],
          flows: [{ name: 'Orders', trigger_keywords: [{ keyword: 'order' }] }],
        });
        // Known only once complete: the fuzzer may delete a record as soon as it knows it.
        const created = await seedAgent(this.clients[owner], String(workflow.id), n);
        created.push([`${API}/workflows/{id}`, { id: String(workflow.id) }]);
        for (const [slot, values] of created) {
          this.resources.add(slot, owner, values);
        }
      }
    }
  }
}
