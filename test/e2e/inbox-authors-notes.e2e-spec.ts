import { randomBytes } from 'node:crypto';
import { newId } from '@/common/ids';
import { MessageAuthors1733146800000 } from '@/database/migrations/1733146800000-message-authors';
import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  issueTicket,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { startTestApp, TestApp } from '../factories/test-app';
import { migrationTargets, seedPreviousRelease } from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { createWebhook, deliveriesOf } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { openStream } from '../support/sse-client';
import { pollUntil } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const NOTE = 'Kemi: she is a regular, refund without asking for the receipt';
const CUSTOMER = { type: 'customer', id: null, name: null };
const AI = { type: 'ai', id: null, name: null };
const ANONYMOUS_OPERATOR = { type: 'operator', id: null, name: null };
const KEMI = { type: 'operator', id: 'op-17', name: 'Kemi Adeyemi' };
const LEGACY_HANDOFF =
  'Thanks for your message. Someone from the Legacy team will get back to you shortly.';

describe('message authors and private notes', () => {
  let t: TestApp;
  let llm: LlmStub;
  let receiver: WebhookReceiver;
  let agentId: string;
  let base: string;
  let webhookId: string;

  beforeAll(async () => {
    llm = await startLlmStub();
    llm.answer = 'Deliveries in Lagos take one day.';
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '2000',
    });
    const workflow = await createWorkflow(t, { name: 'Shop', system_prompt: 'Be brief.' });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createKnowledgeBase(t, agentId, {
      type: 'text',
      name: 'Facts',
      content: 'Deliveries in Lagos take one day.\n\nWe are closed on Sundays.',
    });
    webhookId = (await createWebhook(t, receiver.url, ['message.created'])).id;
    base = conversationsPath(agentId);
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await receiver.close();
  });

  /** A conversation whose first customer message has been answered by the model. */
  async function answeredConversation(user: string): Promise<string> {
    const sent = await sendAs(t, agentId, user, 'How long does delivery take?');
    await repliesSettled(t);
    return sent.conversation_id;
  }

  describe('authors', () => {
    it('names the customer, the AI and operators on every message, everywhere', async () => {
      const conversationId = await answeredConversation('authors-1');
      const anonymous = await sendTo(t, agentId, conversationId, 'Let me check.', 'assistant');
      expect(anonymous).toMatchObject({ author: ANONYMOUS_OPERATOR, private: false });
      const named = (
        await t
          .api()
          .post(`${base}/${conversationId}/messages`)
          .send({
            message: 'Found it.',
            role: 'assistant',
            author: { id: 'op-17', name: 'Kemi Adeyemi' },
          })
          .expect(201)
      ).body.data;
      expect(named).toMatchObject({ role: 'assistant', author: KEMI, private: false });

      const messages = await allMessages(t, agentId, conversationId);
      expect(messages.map((m) => [m.role, m.author, m.private])).toEqual([
        ['user', CUSTOMER, false],
        ['assistant', AI, false],
        ['assistant', ANONYMOUS_OPERATOR, false],
        ['assistant', KEMI, false],
      ]);
      const one = (await t.api().get(`${base}/${conversationId}/messages/${named.id}`).expect(200))
        .body.data;
      expect(one).toMatchObject({ author: KEMI, private: false });

      const events = await receiver.waitFor((received) =>
        received.some((event) => event.body.data.id === named.id),
      );
      const byId = new Map(events.map((event) => [event.body.data.id, event.body.data]));
      expect(byId.get(messages[0].id)).toMatchObject({ author: CUSTOMER, private: false });
      expect(byId.get(messages[1].id)).toMatchObject({ author: AI, private: false });
      expect(byId.get(named.id)).toMatchObject({ author: KEMI, private: false });
    });

    it('names the operator on a message that opens a conversation by channel user', async () => {
      const sent = await sendAs(t, agentId, 'authors-2', 'Hello from the shop', {
        role: 'assistant',
        author: { id: 'op-3', name: null },
      });
      expect(sent).toMatchObject({ author: { type: 'operator', id: 'op-3', name: null } });
    });

    it('refuses an author on a customer message, and a malformed one', async () => {
      const conversationId = (
        await sendAs(t, agentId, 'authors-3', 'opening', { role: 'assistant' })
      ).conversation_id;
      const post = (body: Record<string, unknown>) =>
        t.api().post(`${base}/${conversationId}/messages`).send(body);
      const invalid = [
        { message: 'hi', author: { id: 'op-1' } },
        { message: 'hi', role: 'user', author: { name: 'Kemi' } },
        { message: 'hi', role: 'assistant', author: { id: 'x'.repeat(256) } },
        { message: 'hi', role: 'assistant', author: { name: 'x'.repeat(256) } },
        { message: 'hi', role: 'assistant', author: { id: 17 } },
        { message: 'hi', role: 'assistant', author: { id: 'op-1', email: 'k@example.test' } },
        { message: 'hi', role: 'assistant', author: 'Kemi' },
        { message: 'hi', role: 'assistant', author: null },
        { message: 'hi', role: 'assistant', author: [] },
      ];
      for (const body of invalid) {
        const res = await post(body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({
          body,
          status: 400,
          code: 'validation_error',
        });
      }
      const longest = await post({
        message: 'hi',
        role: 'assistant',
        author: { id: 'i'.repeat(255), name: 'n'.repeat(255) },
      }).expect(201);
      expect(longest.body.data.author).toEqual({
        type: 'operator',
        id: 'i'.repeat(255),
        name: 'n'.repeat(255),
      });
      expect(await allMessages(t, agentId, conversationId)).toHaveLength(2);
    });
  });

  describe('private notes', () => {
    it('adds a note that staff list and stream, but that no one else hears of', async () => {
      const conversationId = await answeredConversation('notes-1');
      const stream = await openStream(
        `${t.url}${base}/${conversationId}/stream?ticket=${await issueTicket(t, agentId, conversationId)}`,
      );
      const res = await t
        .api()
        .post(`${base}/${conversationId}/notes`)
        .send({ text: NOTE, author: { id: 'op-17', name: 'Kemi Adeyemi' } })
        .expect(201);
      expect(res.body).toEqual({
        message: 'Note added successfully',
        data: {
          id: expect.any(String),
          conversation_id: conversationId,
          role: 'assistant',
          message: NOTE,
          message_type: 'note',
          created_at: expect.any(String),
          attachments: [],
          action: null,
          author: KEMI,
          private: true,
          delivery: null,
        },
      });
      const note = res.body.data;
      const anonymous = (
        await t
          .api()
          .post(`${base}/${conversationId}/notes`)
          .send({ text: 'Second note' })
          .expect(201)
      ).body.data;
      expect(anonymous).toMatchObject({ author: ANONYMOUS_OPERATOR, private: true });

      await stream.waitFor((frames) => frames.some((frame) => frame.id === anonymous.id));
      expect(stream.messages().map((m) => [m.id, m.private, m.author])).toEqual([
        [note.id, true, KEMI],
        [anonymous.id, true, ANONYMOUS_OPERATOR],
      ]);
      stream.close();

      await repliesSettled(t);
      const messages = await allMessages(t, agentId, conversationId);
      expect(messages.map((m) => [m.message_type, m.private, m.author.type])).toEqual([
        ['text', false, 'customer'],
        ['text', false, 'ai'],
        ['note', true, 'operator'],
        ['note', true, 'operator'],
      ]);
      const conversation = (await t.api().get(`${base}/${conversationId}`).expect(200)).body.data;
      expect(conversation.last_message_preview).toBe('Deliveries in Lagos take one day.');

      // The customer writes again: the model hears the conversation, without the notes.
      llm.requests.length = 0;
      const later = await sendTo(t, agentId, conversationId, 'And on Sundays?');
      await repliesSettled(t);
      expect(llm.requests).toHaveLength(1);
      expect(llm.requests[0].messages.slice(1)).toEqual([
        { role: 'user', content: 'How long does delivery take?' },
        { role: 'assistant', content: 'Deliveries in Lagos take one day.' },
        { role: 'user', content: 'And on Sundays?' },
      ]);
      expect(JSON.stringify(llm.requests)).not.toContain('Second note');
      expect(JSON.stringify(llm.requests)).not.toContain(NOTE);

      // Every other message was announced; the notes never were.
      // The events are fanned out by a worker: wait for the four announcements themselves.
      const ofConversation = () =>
        receiver
          .ofType('message.created')
          .map((event) => event.body.data)
          .filter((data) => data.conversation_id === conversationId);
      await receiver.waitFor(() => ofConversation().length >= 4);
      await pollUntil(
        () => deliveriesOf(t, webhookId),
        (deliveries) => deliveries.every((delivery) => delivery.status === 'succeeded'),
        10_000,
      );
      expect(ofConversation().some((data) => data.id === later.id)).toBe(true);
      const announced = receiver.ofType('message.created').map((event) => event.body.data);
      expect(announced.filter((data) => data.conversation_id === conversationId).length).toBe(4);
      expect(announced.some((data) => data.private || data.message_type === 'note')).toBe(false);
      expect(JSON.stringify(receiver.received)).not.toContain(NOTE);
    });

    it('never starts a reply, even on a conversation waiting for one', async () => {
      const conversationId = (await sendAs(t, agentId, 'notes-2', 'opening', { role: 'assistant' }))
        .conversation_id;
      llm.requests.length = 0;
      await t
        .api()
        .post(`${base}/${conversationId}/notes`)
        .send({ text: 'Call her back' })
        .expect(201);
      await repliesSettled(t);
      expect(llm.requests).toHaveLength(0);
      expect((await allMessages(t, agentId, conversationId)).map((m) => m.message_type)).toEqual([
        'text',
        'note',
      ]);
    });

    it('validates the note', async () => {
      const conversationId = (await sendAs(t, agentId, 'notes-3', 'opening', { role: 'assistant' }))
        .conversation_id;
      const invalid = [
        {},
        { text: '' },
        { text: 17 },
        { text: 'x'.repeat(10_001) },
        { text: 'ok', message: 'ok' },
        { text: 'ok', private: false },
        { text: 'ok', author: { id: 'x'.repeat(256) } },
        { text: 'ok', author: { role: 'admin' } },
        { text: 'ok', author: null },
      ];
      for (const body of invalid) {
        const res = await t.api().post(`${base}/${conversationId}/notes`).send(body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({
          body,
          status: 400,
          code: 'validation_error',
        });
      }
      await t
        .api()
        .post(`${base}/00000000-0000-7000-8000-000000000000/notes`)
        .send({ text: 'ok' })
        .expect(404);
      expect(await allMessages(t, agentId, conversationId)).toHaveLength(1);
    });

    it('needs the inbox:write scope', async () => {
      const conversationId = (await sendAs(t, agentId, 'notes-4', 'opening', { role: 'assistant' }))
        .conversation_id;
      const { key: writer } = await t.createKey('default', [
        'conversations:read',
        'conversations:write',
      ]);
      const refused = await t
        .api(writer)
        .post(`${base}/${conversationId}/notes`)
        .send({ text: 'Not allowed' })
        .expect(403);
      expect(refused.body.code).toBe('insufficient_scope');
      const { key: inbox } = await t.createKey('default', ['inbox:write']);
      await t
        .api(inbox)
        .post(`${base}/${conversationId}/notes`)
        .send({ text: 'Allowed' })
        .expect(201);
      expect((await allMessages(t, agentId, conversationId)).map((m) => m.message)).toEqual([
        'opening',
        'Allowed',
      ]);
    });
  });
});

const LEGACY = Object.fromEntries(
  ['team', 'workflow', 'agent', 'conversation'].map((name) => [name, newId()]),
);

/**
 * The previous release's messages, as its reply worker and its operators wrote them, with the
 * author the migration gives each.
 */
const LEGACY_MESSAGES: Array<
  [role: string, type: string, second: number, text: string, author: string]
> = [
  ['user', 'text', 0, 'Do you deliver to Lagos?', 'customer'],
  ['assistant', 'text', 2, 'Yes, in one day.', 'ai'],
  ['user', 'text', 10, 'I want a refund', 'customer'],
  ['assistant', 'action', 11, 'lookup_order: succeeded', 'system'],
  ['assistant', 'text', 12, 'Your refund is on its way.', 'ai'],
  ['user', 'text', 20, 'Can I talk to someone?', 'customer'],
  ['assistant', 'text', 21, LEGACY_HANDOFF, 'system'],
  // After a reply: a person's.
  ['assistant', 'text', 60, 'Kemi here, how can I help?', 'operator'],
  ['user', 'text', 100, 'Thanks, all good', 'customer'],
  // Long after the customer's message: a person's.
  ['assistant', 'text', 400, 'Glad to hear it!', 'operator'],
];

/** A database migrated up to the release before authors, holding one conversation. */
async function legacyConversation(url: string, secretKey: Buffer): Promise<void> {
  const at = (second: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, second));
  await seedPreviousRelease(
    url,
    secretKey,
    (all) => all.indexOf(MessageAuthors1733146800000),
    async (insert) => {
      await insert('teams', { id: LEGACY.team, name: 'legacy-authors', created_at: at(0) });
      await insert('workflows', {
        id: LEGACY.workflow,
        team_id: LEGACY.team,
        name: 'Legacy',
        visibility: 'private',
        ...Object.fromEntries(
          [
            'rules',
            'flows',
            'tags',
            'integrations',
            'channels',
            'actions',
            'setup_steps',
            'faq',
          ].map((column) => [column, '[]']),
        ),
        created_at: at(0),
        updated_at: at(0),
      });
      await insert('agents', {
        id: LEGACY.agent,
        team_id: LEGACY.team,
        workflow_id: LEGACY.workflow,
        name: 'Legacy',
        description: 'From the previous release',
        test_channel_code: 'LEGACY27',
        status: 'development',
        created_at: at(0),
        updated_at: at(0),
      });
      await insert('conversations', {
        id: LEGACY.conversation,
        team_id: LEGACY.team,
        agent_id: LEGACY.agent,
        channel_type: 'webchat',
        channel_user_id: 'legacy-customer',
        last_seq: LEGACY_MESSAGES.length,
        last_message_at: at(400),
        created_at: at(0),
        updated_at: at(400),
      });
      for (const [index, [role, type, second, text]] of LEGACY_MESSAGES.entries()) {
        await insert('messages', {
          id: newId(),
          team_id: LEGACY.team,
          agent_id: LEGACY.agent,
          conversation_id: LEGACY.conversation,
          seq: index + 1,
          role,
          message: text,
          message_type: type,
          attachments: '[]',
          action:
            type === 'action'
              ? JSON.stringify({
                  run_id: newId(),
                  action_name: 'lookup_order',
                  status: 'succeeded',
                })
              : null,
          created_at: at(second),
        });
      }
    },
  );
}

const targets = migrationTargets();

describe.each(targets)(
  "authors of the previous release's messages, on %s",
  (_name, postgresUrl) => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      database = await createTestDatabase(postgresUrl);
      const secretKey = randomBytes(32);
      await legacyConversation(database.url, secretKey);
      t = await startTestApp({
        DATABASE_URL: database.url,
        CONSOLE_SECRET_KEY: secretKey.toString('hex'),
      });
      key = (await t.createKey('legacy-authors', ['*'])).key;
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('names customers, the AI, the service and operators by how each message was written', async () => {
      const messages = await allMessages(t, LEGACY.agent, LEGACY.conversation, key);
      expect(messages.map((m) => [m.message, m.author, m.private])).toEqual(
        LEGACY_MESSAGES.map(([, , , text, type]) => [text, { type, id: null, name: null }, false]),
      );
    });
  },
);
