import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES } from '@/modules/webhooks/event-types';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs, sendTo } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { forAjv, OpenApiDocument } from '../support/openapi';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The events of docs/api.md §4b about conversations and their messages, and the record each carries. */
const INBOX_EVENTS: Record<string, string> = {
  'conversation.created': 'ConversationResponseDto',
  'message.created': 'MessageResponseDto',
  'conversation.needs_attention': 'ConversationResponseDto',
  'conversation.handed_off': 'ConversationResponseDto',
  'conversation.status_changed': 'ConversationResponseDto',
  'conversation.assigned': 'ConversationResponseDto',
};

const WORKFLOW = {
  name: 'Desk',
  rules: [
    { name: 'Greeting', trigger: 'hello', response: 'Hi!', enabled: true },
    {
      name: 'Wants a person',
      trigger: 'talk to a human',
      response: 'Connecting you to a person.',
      action: 'escalate',
      enabled: true,
    },
  ],
};

/**
 * Every inbox event, received at a local endpoint, carries `data` in the API shape of its record
 * (docs/api.md §4b): it validates against the document's schema and has exactly its properties.
 */
describe('the inbox webhook events', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let doc: OpenApiDocument;
  let agentId: string;
  let base: string;
  const validators = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp();
    doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(forAjv({ components: doc.components }), 'openapi.json');
    for (const schema of new Set(Object.values(INBOX_EVENTS))) {
      validators.set(schema, ajv.compile({ $ref: `openapi.json#/components/schemas/${schema}` }));
    }
    const workflow = await createWorkflow(t, WORKFLOW);
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createWebhook(t, receiver.url, Object.keys(INBOX_EVENTS));
    base = conversationsPath(agentId);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const ofConversation = (type: string, id: string) =>
    receiver
      .ofType(type)
      .filter((e) => (e.body.data.conversation_id ?? e.body.data.id) === id)
      .map((e) => e.body.data);

  it('lists each of them in the event types and the document', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(expect.arrayContaining(Object.keys(INBOX_EVENTS)));
    const events = doc.components.schemas.WebhookCreateDto.properties.events.items.enum;
    expect(events).toEqual(expect.arrayContaining(Object.keys(INBOX_EVENTS)));
  });

  it('delivers each with its record in the API shape, at the moment of its change', async () => {
    const sent = await sendAs(t, agentId, 'events-1', 'Hello');
    await repliesSettled(t);
    const id = sent.conversation_id;
    await t
      .api()
      .patch(`${base}/${id}`)
      .send({ status: 'pending', assignee: { id: 'op-1', name: 'Kemi' } })
      .expect(200);
    await t.api().post(`${base}/${id}/notes`).send({ text: 'Refund approved' }).expect(201);
    await sendTo(t, agentId, id, 'Can I talk to a human?');
    await repliesSettled(t);
    await t.api().patch(`${base}/${id}`).send({ status: 'resolved' }).expect(200);

    const wanted: Record<string, number> = {
      'conversation.created': 1,
      'message.created': 4,
      'conversation.assigned': 1,
      'conversation.handed_off': 1,
      'conversation.needs_attention': 1,
      'conversation.status_changed': 2,
    };
    await receiver.waitFor(() =>
      Object.entries(wanted).every(([type, n]) => ofConversation(type, id).length >= n),
    );
    // Let any stray delivery (a note's message.created, a second announcement) arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counts = Object.fromEntries(
      Object.keys(wanted).map((type) => [type, ofConversation(type, id).length]),
    );
    expect(counts).toEqual(wanted);

    const problems: string[] = [];
    for (const event of receiver.received) {
      const schemaName = INBOX_EVENTS[event.body.type];
      const validate = validators.get(schemaName)!;
      if (!validate(event.body.data)) {
        problems.push(`${event.body.type}: ${JSON.stringify(validate.errors)}`);
      }
      // docs/api.md §4b: conversations and messages also carry `agent_id`.
      const properties = Object.keys(doc.components.schemas[schemaName].properties);
      const documented = [...new Set([...properties, 'agent_id'])].sort();
      const keys = Object.keys(event.body.data).sort();
      if (JSON.stringify(keys) !== JSON.stringify(documented)) {
        problems.push(`${event.body.type}: keys ${keys.join()} instead of ${documented.join()}`);
      }
    }
    expect(problems).toEqual([]);

    const [created] = ofConversation('conversation.created', id);
    expect(created).toMatchObject({ id, agent_id: agentId, status: 'open', assignee: null });
    const [assigned] = ofConversation('conversation.assigned', id);
    expect(assigned.assignee).toEqual({ id: 'op-1', name: 'Kemi' });
    const [handedOff] = ofConversation('conversation.handed_off', id);
    expect(handedOff).toMatchObject({
      status: 'pending',
      needs_attention: true,
      handoff: { reason: 'Wants a person', source: 'rule', at: expect.any(String) },
    });
    const [attention] = ofConversation('conversation.needs_attention', id);
    expect(attention).toMatchObject({ needs_attention: true, handoff: handedOff.handoff });
    const statuses = ofConversation('conversation.status_changed', id);
    expect(statuses.map((data) => data.status).sort()).toEqual(['pending', 'resolved']);
    const resolved = statuses.find((data) => data.status === 'resolved')!;
    expect(resolved).toMatchObject({ needs_attention: false, is_ai_chat_paused: false });
    const messages = ofConversation('message.created', id);
    expect(messages.every((message) => message.private === false)).toBe(true);
    expect(messages.map((message) => message.author.type).sort()).toEqual([
      'ai',
      'ai',
      'customer',
      'customer',
    ]);
  });
});
