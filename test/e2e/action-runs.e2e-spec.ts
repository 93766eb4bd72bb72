import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  issueTicket,
  repliesSettled,
  sendAs,
} from '../factories/conversations';
import { configureIntegration } from '../factories/integrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { McpTestServer, startMcpTestServer, TestTool } from '../support/mcp-test-server';
import { openStream } from '../support/sse-client';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

const ORDER_SCHEMA = {
  type: 'object' as const,
  properties: { order_id: { type: 'string', description: 'The order number' } },
  required: ['order_id'],
};

function shopTools(): TestTool[] {
  return [
    {
      name: 'order_status',
      description: 'The status of an order',
      inputSchema: ORDER_SCHEMA,
      call: (args) => `Order ${String(args.order_id)} shipped on Monday`,
    },
    {
      name: 'refund_order',
      description: 'Refund an order',
      inputSchema: ORDER_SCHEMA,
      call: (args) => `Refund of ${String(args.order_id)} issued`,
    },
    {
      name: 'opening_hours',
      description: 'When the shop is open',
      inputSchema: { type: 'object' as const, properties: {} },
      call: () => 'Open 9:00 to 17:00, Monday to Saturday',
    },
    {
      name: 'broken_tool',
      description: 'Always fails',
      inputSchema: ORDER_SCHEMA,
      call: () => {
        throw new Error('warehouse database is down');
      },
    },
    {
      name: 'slow_tool',
      description: 'Never answers in time',
      inputSchema: ORDER_SCHEMA,
      call: async () => {
        await new Promise((resolve) => setTimeout(resolve, 3_000).unref());
        return 'too late';
      },
    },
  ];
}

/** An agent with the MCP server's tools as its actions; returns the agent and its action ids. */
async function agentWithTools(
  t: TestApp,
  mcp: McpTestServer,
  workflow: Record<string, unknown> = { name: 'Shop' },
  transport: 'streamable_http' | 'http_sse' = 'streamable_http',
) {
  const workflowId = (await createWorkflow(t, workflow)).id;
  const agentId: string = (await createAgent(t, { workflow_id: workflowId, business_name: 'Shop' }))
    .id;
  const server = await configureIntegration(t, agentId, 'mcp_server', {
    name: 'Shop tools',
    server_url: `${mcp.url}${transport === 'http_sse' ? '/sse' : '/mcp'}`,
    transport,
  });
  await t
    .api()
    .post(`${API}/agents/${agentId}/integrations/mcp_server/${server.id}/discover`)
    .expect(200);
  const actions = (await t.api().get(`${API}/agents/${agentId}/actions`).expect(200)).body.data;
  const ids: Record<string, string> = Object.fromEntries(
    actions.map((action: { action_name: string; id: string }) => [action.action_name, action.id]),
  );
  return { agentId, ids };
}

/** The contract offers no switch for an MCP tool's approval yet: set as a person would in the dashboard. */
async function requireApproval(t: TestApp, actionId: string): Promise<void> {
  await t
    .dataSource()
    .createQueryBuilder()
    .update('actions')
    .set({ requireHumanApproval: true })
    .where('id = :id', { id: actionId })
    .execute();
}

async function runsOf(t: TestApp, agentId: string, query = ''): Promise<any[]> {
  return (await t.api().get(`${API}/agents/${agentId}/action-runs${query}`).expect(200)).body.data;
}

async function conversation(t: TestApp, agentId: string, id: string) {
  return (
    await t
      .api()
      .get(`${conversationsPath(agentId)}/${id}`)
      .expect(200)
  ).body.data;
}

describe('action runs with a language model and an MCP server', () => {
  let t: TestApp;
  let llm: LlmStub;
  let mcp: McpTestServer;

  beforeAll(async () => {
    llm = await startLlmStub();
    mcp = await startMcpTestServer(shopTools());
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '2000',
      OUTBOUND_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await mcp.close();
  });
  beforeEach(() => {
    llm.behaviour = 'answer';
    llm.toolCall = null;
    llm.requests.length = 0;
    mcp.calls.length = 0;
  });

  it.each(['streamable_http', 'http_sse'] as const)(
    'answers an order question with the MCP tool the model calls (%s), shown as an action message',
    async (transport) => {
      const { agentId, ids } = await agentWithTools(t, mcp, { name: 'Shop' }, transport);
      llm.toolCall = { name: 'order_status', arguments: { order_id: 'A1' } };
      const sent = await sendAs(t, agentId, `buyer-${transport}`, 'Where is my parcel A1?');
      await repliesSettled(t);

      expect(mcp.calls).toEqual([{ name: 'order_status', arguments: { order_id: 'A1' } }]);
      const offered = llm.requests[0].tools!.find((tool) => tool.function.name === 'order_status');
      expect(offered!.function.parameters).toEqual(ORDER_SCHEMA);
      const messages = await allMessages(t, agentId, sent.conversation_id);
      const [run] = await runsOf(t, agentId);
      expect(messages.slice(1)).toEqual([
        expect.objectContaining({
          role: 'assistant',
          message_type: 'action',
          message: 'Action order_status succeeded',
          action: { run_id: run.id, action_name: 'order_status', status: 'succeeded' },
        }),
        expect.objectContaining({
          role: 'assistant',
          message_type: 'text',
          action: null,
          message: expect.stringContaining('Order A1 shipped on Monday'),
        }),
      ]);
      expect(messages[0].action).toBeNull();
      expect(run).toEqual({
        id: expect.any(String),
        agent_id: agentId,
        conversation_id: sent.conversation_id,
        message_id: sent.id,
        action_id: ids.order_status,
        action_name: 'order_status',
        arguments: { order_id: 'A1' },
        status: 'succeeded',
        result: 'Order A1 shipped on Monday',
        error: null,
        decided_by_api_key_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const one = await t.api().get(`${API}/agents/${agentId}/action-runs/${run.id}`).expect(200);
      expect(one.body.data).toEqual(run);
    },
  );

  it("calls the tool with the MCP server's auth", async () => {
    const workflowId = (await createWorkflow(t, { name: 'Authenticated' })).id;
    const agentId: string = (await createAgent(t, { workflow_id: workflowId })).id;
    mcp.requiredToken = 'mcp-secret-token';
    try {
      const server = await configureIntegration(t, agentId, 'mcp_server', {
        name: 'Locked shop',
        server_url: `${mcp.url}/mcp`,
        auth_type: 'bearer',
        auth_config: { token: 'mcp-secret-token' },
      });
      await t
        .api()
        .post(`${API}/agents/${agentId}/integrations/mcp_server/${server.id}/discover`)
        .expect(200);
      llm.toolCall = { name: 'order_status', arguments: { order_id: 'G8' } };
      const sent = await sendAs(t, agentId, 'locked-buyer', 'Where is G8?');
      await repliesSettled(t);
      expect(mcp.calls).toEqual([{ name: 'order_status', arguments: { order_id: 'G8' } }]);
      const messages = await allMessages(t, agentId, sent.conversation_id);
      expect(messages.at(-1)!.message).toContain('Order G8 shipped on Monday');
    } finally {
      mcp.requiredToken = null;
    }
  });

  it('parks an action that needs approval, runs it once approved, and the reply continues', async () => {
    const { agentId, ids } = await agentWithTools(t, mcp);
    await requireApproval(t, ids.refund_order);
    llm.toolCall = { name: 'refund_order', arguments: { order_id: 'B2' } };
    const sent = await sendAs(t, agentId, 'refund-buyer', 'Please refund B2');
    await repliesSettled(t);

    expect(mcp.calls).toEqual([]);
    const [parked] = await runsOf(t, agentId, '?status=pending_approval');
    expect(parked).toMatchObject({ status: 'pending_approval', arguments: { order_id: 'B2' } });
    expect((await conversation(t, agentId, sent.conversation_id)).needs_attention).toBe(true);
    let messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.slice(1).map((m) => [m.message_type, m.message])).toEqual([
      ['action', 'Action refund_order is waiting for approval'],
      ['text', expect.stringContaining('approve')],
    ]);

    const ticket = await issueTicket(t, agentId, sent.conversation_id);
    const stream = await openStream(
      `${t.url}${conversationsPath(agentId)}/${sent.conversation_id}/messages/stream?ticket=${ticket}`,
    );
    const approved = await t
      .api()
      .post(`${API}/agents/${agentId}/action-runs/${parked.id}/approve`)
      .expect(200);
    await stream.waitFor(() => stream.messages().some((m) => m.message_type === 'text'));
    expect(stream.messages().map((m) => [m.message_type, m.action])).toEqual([
      ['action', { run_id: parked.id, action_name: 'refund_order', status: 'succeeded' }],
      ['text', null],
    ]);
    stream.close();
    expect(approved.body.data).toMatchObject({
      id: parked.id,
      status: 'succeeded',
      result: 'Refund of B2 issued',
      decided_by_api_key_id: expect.any(String),
    });
    expect(mcp.calls).toEqual([{ name: 'refund_order', arguments: { order_id: 'B2' } }]);
    await repliesSettled(t);
    messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.slice(3).map((m) => [m.message_type, m.action?.status ?? null])).toEqual([
      ['action', 'succeeded'],
      ['text', null],
    ]);
    expect(messages.at(-1)!.message).toContain('Refund of B2 issued');
    expect((await conversation(t, agentId, sent.conversation_id)).needs_attention).toBe(false);

    for (const decision of ['approve', 'reject']) {
      const again = await t
        .api()
        .post(`${API}/agents/${agentId}/action-runs/${parked.id}/${decision}`)
        .send({})
        .expect(409);
      expect(again.body.code).toBe('conflict');
    }
    expect(mcp.calls).toHaveLength(1);
  });

  it('tells the customer a rejected action could not be done, and never calls it', async () => {
    const receiver = await WebhookReceiver.start();
    const webhook = await createWebhook(t, receiver.url, [
      'action_run.pending_approval',
      'action_run.completed',
    ]);
    const { agentId, ids } = await agentWithTools(t, mcp);
    await requireApproval(t, ids.refund_order);
    llm.toolCall = { name: 'refund_order', arguments: { order_id: 'C3' } };
    const sent = await sendAs(t, agentId, 'rejected-buyer', 'Refund C3 now');
    await repliesSettled(t);
    const [parked] = await runsOf(t, agentId, `?conversation_id=${sent.conversation_id}`);
    const [waiting] = await receiver.waitFor((all) => all.length === 1);
    expect(waiting.body).toMatchObject({ type: 'action_run.pending_approval', data: parked });

    const rejected = await t
      .api()
      .post(`${API}/agents/${agentId}/action-runs/${parked.id}/reject`)
      .send({ reason: 'Outside the refund window' })
      .expect(200);
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      error: 'Outside the refund window',
      result: null,
    });
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.at(-2)).toMatchObject({
      message_type: 'action',
      message: 'Action refund_order was rejected: Outside the refund window',
    });
    expect(messages.at(-1)!.message).toBe(
      'Sorry, "Refund order" could not go ahead. A member of the team will follow up if needed.',
    );
    expect(mcp.calls).toEqual([]);
    await t.api().post(`${API}/agents/${agentId}/action-runs/${parked.id}/approve`).expect(409);
    const events = await receiver.waitFor((all) => all.length === 2);
    expect(events[1].body).toMatchObject({
      type: 'action_run.completed',
      data: rejected.body.data,
    });
    expect(events.every((event) => verifySignature(webhook.secret, event))).toBe(true);
    await t.api().delete(`${API}/webhooks/${webhook.id}`).expect(200);
    await receiver.close();
  });

  it.each(['disabling the action', 'deleting its integration', 'a discover finding it gone'])(
    'rejects the runs waiting for approval when %s ("action disabled"): the customer is told, approving answers 409',
    async (change) => {
      const receiver = await WebhookReceiver.start();
      const webhook = await createWebhook(t, receiver.url, ['action_run.completed']);
      const { agentId, ids } = await agentWithTools(t, mcp);
      await requireApproval(t, ids.refund_order);
      llm.toolCall = { name: 'refund_order', arguments: { order_id: 'W7' } };
      const sent = await sendAs(t, agentId, `withdrawn-${change}`, 'Refund W7 please');
      await repliesSettled(t);
      const [parked] = await runsOf(t, agentId, '?status=pending_approval');

      if (change === 'disabling the action') {
        const disabled = await t
          .api()
          .post(`${API}/agents/${agentId}/actions/disable`)
          .send({ action_ids: [ids.refund_order] })
          .expect(200);
        expect(disabled.body.data).toEqual({ updated_count: 1 });
      } else {
        const { integration_id } = (
          await t.api().get(`${API}/agents/${agentId}/actions`).expect(200)
        ).body.data.find((action: { id: string }) => action.id === ids.refund_order);
        const server = `${API}/agents/${agentId}/integrations/mcp_server/${integration_id}`;
        if (change === 'deleting its integration') {
          await t.api().delete(server).expect(200);
        } else {
          mcp.tools = shopTools().filter((tool) => tool.name !== 'refund_order');
          try {
            const found = await t.api().post(`${server}/discover`).expect(200);
            expect(found.body.data).toMatchObject({ disabled: 1 });
          } finally {
            mcp.tools = shopTools();
          }
        }
      }
      const run = (
        await t.api().get(`${API}/agents/${agentId}/action-runs/${parked.id}`).expect(200)
      ).body.data;
      expect(run).toMatchObject({
        status: 'rejected',
        error: 'action disabled',
        result: null,
        decided_by_api_key_id: null,
      });
      await repliesSettled(t);
      const messages = await allMessages(t, agentId, sent.conversation_id);
      expect(messages.slice(-2)).toEqual([
        expect.objectContaining({
          message_type: 'action',
          message: 'Action refund_order was rejected: action disabled',
          action: { run_id: parked.id, action_name: 'refund_order', status: 'rejected' },
        }),
        expect.objectContaining({
          message_type: 'text',
          message: expect.stringMatching(/^Sorry, "Refund order" could not go ahead\./),
        }),
      ]);
      expect((await conversation(t, agentId, sent.conversation_id)).needs_attention).toBe(false);
      const [completed] = await receiver.waitFor((all) => all.length === 1);
      expect(completed.body).toMatchObject({ type: 'action_run.completed', data: run });

      const approved = await t
        .api()
        .post(`${API}/agents/${agentId}/action-runs/${parked.id}/approve`)
        .expect(409);
      expect(approved.body.code).toBe('conflict');
      expect(mcp.calls).toEqual([]);
      await t.api().delete(`${API}/webhooks/${webhook.id}`).expect(200);
      await receiver.close();
    },
  );

  it.each([
    ['fails', 'broken_tool', /warehouse database is down/],
    ['times out', 'slow_tool', /no answer within 1000 ms/],
  ])('records a tool that %s as failed and still answers honestly', async (_, tool, error) => {
    const { agentId } = await agentWithTools(t, mcp);
    llm.toolCall = { name: tool, arguments: { order_id: 'D4' } };
    const sent = await sendAs(t, agentId, `failing-${tool}`, 'Check order D4');
    await repliesSettled(t);
    const [run] = await runsOf(t, agentId);
    expect(run).toMatchObject({ action_name: tool, status: 'failed', error, result: null });
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.at(-2)).toMatchObject({
      message_type: 'action',
      action: { run_id: run.id, action_name: tool, status: 'failed' },
    });
    // The model read the failure and said so; nothing was made up.
    expect(messages.at(-1)!.message).toMatch(/failed/);
    await t.api().get(`${API}/agents/${agentId}`).expect(200);
  });

  it('hands off at an escalating rule without asking the model', async () => {
    const { agentId } = await agentWithTools(t, mcp, {
      name: 'Escalating',
      rules: [{ name: 'Human', trigger: 'a human', action: 'escalate', enabled: true }],
    });
    const sent = await sendAs(t, agentId, 'escalator', 'I want a human please');
    await repliesSettled(t);
    expect(llm.requests).toHaveLength(0);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.at(-1)!.message).toMatch(/will get back to you shortly/);
    expect((await conversation(t, agentId, sent.conversation_id)).needs_attention).toBe(true);
  });

  it('sends the workflow prompt settings, persona, language and local time to the model', async () => {
    const workflowId = (
      await createWorkflow(t, {
        name: 'Tuned',
        system_prompt: 'You are {{agent.name}}.',
        prompt_config: { model: 'tuned-model', temperature: 0.2, max_tokens: 120 },
      })
    ).id;
    const agentId = (
      await createAgent(t, {
        workflow_id: workflowId,
        name: 'Bo',
        persona: 'concise',
        language: 'French',
        timezone: 'Africa/Lagos',
      })
    ).id;
    await sendAs(t, agentId, 'tuned', 'Bonjour?');
    await repliesSettled(t);
    const [request] = llm.requests;
    expect(request).toMatchObject({ model: 'tuned-model', temperature: 0.2, max_tokens: 120 });
    const system = request.messages[0].content;
    expect(system).toContain('You are Bo.');
    expect(system).toContain('French');
    expect(system).toContain('Be brief');
    expect(system).toMatch(/local time is .+\(Africa\/Lagos\)/);
  });

  it('lists runs paginated and filtered, and refuses a bad filter or an unknown run', async () => {
    const { agentId } = await agentWithTools(t, mcp);
    llm.toolCall = { name: 'order_status', arguments: { order_id: 'E5' } };
    await sendAs(t, agentId, 'lister-1', 'Where is E5?');
    await sendAs(t, agentId, 'lister-2', 'Where is E5?');
    await repliesSettled(t);
    const page = await t
      .api()
      .get(`${API}/agents/${agentId}/action-runs?limit=1&status=succeeded`)
      .expect(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta).toMatchObject({ has_next_page: true });
    expect(Object.keys(page.body.data[0]).sort()).toEqual(
      [
        'id',
        'agent_id',
        'conversation_id',
        'message_id',
        'action_id',
        'action_name',
        'arguments',
        'status',
        'result',
        'error',
        'decided_by_api_key_id',
        'created_at',
        'updated_at',
      ].sort(),
    );
    const newestFirst = (await runsOf(t, agentId)).map((run) => run.id);
    expect(newestFirst).toHaveLength(2);
    expect(newestFirst[0]).toBe(page.body.data[0].id);
    const oldestFirst = await runsOf(t, agentId, '?sort=created_at');
    expect(oldestFirst.map((run) => run.id)).toEqual([...newestFirst].reverse());
    await t.api().get(`${API}/agents/${agentId}/action-runs?status=done`).expect(400);
    await t.api().get(`${API}/agents/${agentId}/action-runs?sort=name`).expect(400);
    await t
      .api()
      .get(`${API}/agents/${agentId}/action-runs/00000000-0000-4000-8000-000000000000`)
      .expect(404);
  });

  it('reads runs with agents:read and decides them with inbox:write only (403)', async () => {
    const { agentId } = await agentWithTools(t, mcp);
    const runs = `${API}/agents/${agentId}/action-runs`;
    const unknown = `${runs}/00000000-0000-4000-8000-000000000000`;
    const reader = await t.createKey('default', ['agents:read']);
    const decider = await t.createKey('default', ['inbox:write']);
    await t.api(reader.key).get(runs).expect(200);
    await t.api(reader.key).get(unknown).expect(404);
    for (const decision of ['approve', 'reject']) {
      await t.api(reader.key).post(`${unknown}/${decision}`).send({}).expect(403);
      await t.api(decider.key).post(`${unknown}/${decision}`).send({}).expect(404);
    }
    await t.api(decider.key).get(runs).expect(403);
  });

  it("refuses a chat back-end's conversations:write key (403) and takes a staff inbox:write key for approving", async () => {
    const { agentId, ids } = await agentWithTools(t, mcp);
    await requireApproval(t, ids.refund_order);
    llm.toolCall = { name: 'refund_order', arguments: { order_id: 'S1' } };
    await sendAs(t, agentId, 'scoped-buyer', 'Refund S1');
    await repliesSettled(t);
    const [parked] = await runsOf(t, agentId, '?status=pending_approval');
    const chatBackEnd = await t.createKey('default', ['conversations:read', 'conversations:write']);
    const staff = await t.createKey('default', ['inbox:write']);
    const run = `${API}/agents/${agentId}/action-runs/${parked.id}`;
    for (const decision of ['approve', 'reject']) {
      const refused = await t.api(chatBackEnd.key).post(`${run}/${decision}`).send({}).expect(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope' });
      expect(refused.body.message).toContain('inbox:write');
    }
    expect(mcp.calls).toEqual([]);
    const approved = await t.api(staff.key).post(`${run}/approve`).expect(200);
    expect(approved.body.data).toMatchObject({
      status: 'succeeded',
      decided_by_api_key_id: staff.keyId,
    });
    expect(mcp.calls).toEqual([{ name: 'refund_order', arguments: { order_id: 'S1' } }]);
  });
});

describe('action runs without a language model', () => {
  let t: TestApp;
  let mcp: McpTestServer;

  beforeAll(async () => {
    mcp = await startMcpTestServer(shopTools());
    t = await startTestApp({ OUTBOUND_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await t.close();
    await mcp.close();
  });

  it('runs the action a matching rule names, and answers with the text of its tool', async () => {
    const { agentId } = await agentWithTools(t, mcp, {
      name: 'Rules',
      rules: [{ name: 'Hours', trigger: 'open, hours', action: 'opening_hours', enabled: true }],
    });
    const sent = await sendAs(t, agentId, 'rule-buyer', 'When are you open?');
    await repliesSettled(t);
    expect(mcp.calls).toEqual([{ name: 'opening_hours', arguments: {} }]);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    expect(messages.slice(1).map((m) => [m.message_type, m.message])).toEqual([
      ['action', 'Action opening_hours succeeded'],
      ['text', 'Open 9:00 to 17:00, Monday to Saturday'],
    ]);
  });

  it("collects the customer's answer in a flow and passes it to the step's action", async () => {
    mcp.calls.length = 0;
    const { agentId } = await agentWithTools(t, mcp, {
      name: 'Tracking',
      flows: [
        {
          name: 'Track',
          trigger_keywords: [{ keyword: 'track', weight: 'high' }],
          conversation_steps: [
            { type: 'collect', content: 'What is your order number?', key: 'order_id' },
            { type: 'action', action: 'order_status' },
            { type: 'message', content: 'Anything else about order {{order_id}}?' },
          ],
        },
      ],
    });
    const first = await sendAs(t, agentId, 'tracker', 'I want to track a parcel');
    await repliesSettled(t);
    await sendAs(t, agentId, 'tracker', 'F6');
    await repliesSettled(t);
    await sendAs(t, agentId, 'tracker', 'thanks');
    await repliesSettled(t);
    expect(mcp.calls).toEqual([{ name: 'order_status', arguments: { order_id: 'F6' } }]);
    const messages = await allMessages(t, agentId, first.conversation_id);
    expect(messages.map((m) => m.message)).toEqual([
      'I want to track a parcel',
      'What is your order number?',
      'F6',
      'Action order_status succeeded',
      'Order F6 shipped on Monday',
      'thanks',
      'Anything else about order F6?',
    ]);
  });
});
