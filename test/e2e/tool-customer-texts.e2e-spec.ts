import { createAgent } from '../factories/agents';
import { allMessages, repliesSettled, sendAs } from '../factories/conversations';
import { configureIntegration, createTool } from '../factories/integrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { FakeShopApi, startFakeShopApi } from '../support/fake-shop-api';
import { LlmStub, startLlmStub } from '../support/llm-stub';

/** The mapping an existing client sends, as it sends it. */
const CLIENT_MAPPING = {
  path: '$.data',
  success_message: 'Your order {{order_id}} is {{status}}',
  error_message: 'Sorry, I could not find order {{order_id}}',
};
const ORDER_PARAMS = [{ name: 'order_id', type: 'string', required: true }];

/**
 * A flow that collects the order number into the conversation's context, and rules that run
 * the shop's tools with it.
 */
const WORKFLOW = {
  name: 'Orders',
  flows: [
    {
      name: 'Order number',
      trigger_keywords: [{ keyword: 'my order number', weight: 'high' }],
      conversation_steps: [
        { type: 'collect', content: 'Which order?', key: 'order_id' },
        { type: 'message', content: 'Noted.' },
      ],
    },
  ],
  rules: [
    { name: 'Status', trigger: 'order status', action: 'get_order_status', enabled: true },
    {
      name: 'Check',
      trigger: 'check my order',
      response: 'Let me check.',
      action: 'get_order_status',
      enabled: true,
    },
    { name: 'Plain', trigger: 'plain lookup', action: 'plain_order_lookup', enabled: true },
    { name: 'Approved', trigger: 'approved lookup', action: 'approved_lookup', enabled: true },
  ],
};

/** An agent on WORKFLOW with the shop's tools; the tool create answers by action name. */
async function shopAgent(t: TestApp, shop: FakeShopApi) {
  const workflowId = (await createWorkflow(t, WORKFLOW)).id;
  const agentId: string = (await createAgent(t, { workflow_id: workflowId })).id;
  const api = await configureIntegration(t, agentId, 'custom_api', {
    name: 'Shop',
    base_url: `${shop.url}/v1`,
    auth_type: 'api_key',
    auth_config: { api_key: 'shop-secret-1', header_name: 'X-Shop-Key' },
  });
  const tool = (body: Record<string, unknown>) => createTool(t, agentId, api.id, body);
  const tools = [
    await tool({
      name: 'Get order status',
      http_method: 'GET',
      url_template: '/status/{order_id}',
      url_params: ORDER_PARAMS,
      response_mapping: CLIENT_MAPPING,
    }),
    await tool({
      name: 'Plain order lookup',
      http_method: 'GET',
      url_template: '/status/{order_id}',
      url_params: ORDER_PARAMS,
    }),
    await tool({
      name: 'Approved lookup',
      http_method: 'GET',
      url_template: '/status/{order_id}',
      url_params: ORDER_PARAMS,
      response_mapping: CLIENT_MAPPING,
      require_human_approval: true,
    }),
  ];
  return { agentId, apiId: api.id as string, tools };
}

/** What the customer reads back for `message`, once the order number `orderId` was given. */
async function customerReads(
  t: TestApp,
  agentId: string,
  user: string,
  orderId: string,
  message: string,
): Promise<{ conversationId: string; replies: string[] }> {
  const first = await sendAs(t, agentId, user, 'Here is my order number');
  await repliesSettled(t);
  await sendAs(t, agentId, user, orderId);
  await repliesSettled(t);
  await sendAs(t, agentId, user, message);
  await repliesSettled(t);
  const messages = await allMessages(t, agentId, first.conversation_id);
  const asked = messages.map((m) => m.message).lastIndexOf(message);
  return {
    conversationId: first.conversation_id,
    replies: messages
      .slice(asked + 1)
      .filter((m) => m.message_type === 'text')
      .map((m) => m.message),
  };
}

describe('custom API tool texts without a model', () => {
  let t: TestApp;
  let shop: FakeShopApi;
  let agentId: string;
  let apiId: string;

  beforeAll(async () => {
    shop = await startFakeShopApi();
    t = await startTestApp({ OUTBOUND_TIMEOUT_MS: '2000' });
    ({ agentId, apiId } = await shopAgent(t, shop));
  });
  afterAll(async () => {
    await t.close();
    await shop.close();
  });

  it('takes the mapping clients send (201) with the tool record in its documented shape', async () => {
    const res = await t
      .api()
      .post(`${API}/agents/${agentId}/integrations/custom_api/${apiId}/tools`)
      .send({
        name: 'Order lookup',
        http_method: 'GET',
        url_template: '/status/{order_id}',
        response_mapping: { ...CLIENT_MAPPING, fields: { state: '$.data.status' } },
      })
      .expect(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      action_name: 'order_lookup',
      name: 'Order lookup',
      description: null,
      category: 'custom',
      is_enabled: true,
    });
  });

  it('tells the customer the filled success text, and keeps the picked result on the run', async () => {
    const { replies } = await customerReads(t, agentId, 'ada', 'A1', 'What is my order status?');
    expect(replies).toEqual(['Your order A1 is shipped']);
    const runs = (await t.api().get(`${API}/agents/${agentId}/action-runs`).expect(200)).body.data;
    expect(runs[0]).toMatchObject({
      action_name: 'get_order_status',
      arguments: { order_id: 'A1' },
      status: 'succeeded',
      result: { id: 'A1', status: 'shipped' },
    });
  });

  it('tells the customer the filled error text when the shop answers 404', async () => {
    const { replies } = await customerReads(t, agentId, 'bola', 'Z9', 'order status please');
    expect(replies).toEqual(['Sorry, I could not find order Z9']);
    expect(shop.requests.at(-1)!.url).toBe('/v1/status/Z9');
  });

  it('answers a rule with a response and an action with the response, then the action text', async () => {
    const { replies } = await customerReads(t, agentId, 'chi', 'B2', 'Please check my order');
    expect(replies).toEqual(['Let me check.\n\nYour order B2 is processing']);
  });

  it('names the action in a sentence, never JSON, when the tool has no text of its own', async () => {
    const found = await customerReads(t, agentId, 'dayo', 'A1', 'plain lookup');
    expect(found.replies).toEqual(['Done: Plain order lookup.']);
    const missing = await customerReads(t, agentId, 'ebi', 'Z9', 'plain lookup');
    expect(missing.replies).toEqual([
      'Sorry, I could not complete "Plain order lookup" just now. A member of the team will follow up.',
    ]);
    const lines = await allMessages(t, agentId, missing.conversationId);
    expect(lines.find((m) => m.message_type === 'action')!.message).toBe(
      'Action plain_order_lookup failed: Shop answered 404',
    );
    for (const conversationId of [found.conversationId, missing.conversationId]) {
      const messages = await allMessages(t, agentId, conversationId);
      for (const message of messages.filter((m) => m.role === 'assistant')) {
        expect(message.message).not.toMatch(/[{}[\]]/);
      }
    }
  });

  it('tells the customer the filled text once a person approves the run', async () => {
    const { conversationId, replies } = await customerReads(
      t,
      agentId,
      'femi',
      'A1',
      'approved lookup',
    );
    expect(replies).toEqual([
      "I've asked a member of the team to approve this; I'll get back to you as soon as they have.",
    ]);
    const [parked] = (
      await t.api().get(`${API}/agents/${agentId}/action-runs?status=pending_approval`).expect(200)
    ).body.data;
    await t.api().post(`${API}/agents/${agentId}/action-runs/${parked.id}/approve`).expect(200);
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, conversationId);
    expect(messages.slice(-2).map((m) => [m.message_type, m.message])).toEqual([
      ['action', 'Action approved_lookup succeeded'],
      ['text', 'Your order A1 is shipped'],
    ]);
  });

  it('refuses mappings it could not use, each problem named (400)', async () => {
    const refused = async (mapping: unknown) =>
      (
        await t
          .api()
          .post(`${API}/agents/${agentId}/integrations/custom_api/${apiId}/tools`)
          .send({ name: 'Bad', http_method: 'GET', url_template: '/x', response_mapping: mapping })
          .expect(400)
      ).body;
    const body = await refused({
      path: '$.data..x',
      fields: { status: 'the status' },
      success_message: 'Order {order_id} is ready',
      error_message: 'x'.repeat(1_001),
      order_status: '$.data.status',
    });
    expect(body).toMatchObject({ code: 'validation_error', statusCode: 400 });
    expect(body.message).toEqual([
      'response_mapping.order_status: is not allowed',
      'response_mapping.path: must be a path into the answer, such as "$.data.order.status"',
      'response_mapping.fields.status: must be a path into the answer, such as "$.data.order.status"',
      'response_mapping.success_message: placeholders are written {{name}} (a name of letters, digits, _ and -); other braces are refused',
      'response_mapping.error_message: must be shorter than or equal to 1000 characters',
    ]);
    expect((await refused({ success_message: 7 })).message).toEqual([
      'response_mapping.success_message: must be a string',
    ]);
    expect((await refused(['$.data'])).message).toEqual([
      'response_mapping: must be a JSON object',
    ]);
  });

  it('documents the mapping shape in OpenAPI', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    const schema = doc.components.schemas.ResponseMappingDto;
    expect(Object.keys(schema.properties).sort()).toEqual([
      'error_message',
      'fields',
      'path',
      'success_message',
    ]);
    const tool = doc.components.schemas.ToolCreateDto.properties.response_mapping;
    expect(JSON.stringify(tool)).toContain('#/components/schemas/ResponseMappingDto');
  });
});

describe('custom API tool texts with a model', () => {
  let t: TestApp;
  let shop: FakeShopApi;
  let llm: LlmStub;
  let agentId: string;

  beforeAll(async () => {
    [shop, llm] = await Promise.all([startFakeShopApi(), startLlmStub()]);
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '5000',
      OUTBOUND_TIMEOUT_MS: '2000',
    });
    ({ agentId } = await shopAgent(t, shop));
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([shop.close(), llm.close()]);
  });

  it('hands the model the picked result and the filled text as the tool result', async () => {
    llm.toolCall = { name: 'get_order_status', arguments: { order_id: 'B2' } };
    await sendAs(t, agentId, 'gbenga', 'Where is B2?');
    await repliesSettled(t);
    const toolMessage = llm.requests[1].messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({
      status: 'succeeded',
      result: { id: 'B2', status: 'processing' },
      message: 'Your order B2 is processing',
    });
  });

  it('hands the model the filled text once a person approves the run', async () => {
    llm.requests.length = 0;
    llm.toolCall = { name: 'approved_lookup', arguments: { order_id: 'A1' } };
    const sent = await sendAs(t, agentId, 'ify', 'Look up A1 for me');
    await repliesSettled(t);
    const [parked] = (
      await t
        .api()
        .get(`${API}/agents/${agentId}/action-runs?conversation_id=${sent.conversation_id}`)
        .expect(200)
    ).body.data;
    expect(parked.status).toBe('pending_approval');
    llm.requests.length = 0;
    await t.api().post(`${API}/agents/${agentId}/action-runs/${parked.id}/approve`).expect(200);
    await repliesSettled(t);
    const note = llm.requests[0].messages.at(-1)!;
    expect(note.role).toBe('system');
    expect(note.content).toContain('"message":"Your order A1 is shipped"');
  });

  it('hands the model the filled error text when the call fails', async () => {
    llm.requests.length = 0;
    llm.toolCall = { name: 'get_order_status', arguments: { order_id: 'Q7' } };
    await sendAs(t, agentId, 'hauwa', 'Where is Q7?');
    await repliesSettled(t);
    const toolMessage = llm.requests[1].messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({
      status: 'failed',
      error: 'Shop answered 404: {"error":"order Q7 not found"}',
      message: 'Sorry, I could not find order Q7',
    });
  });
});
