import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CONVERSATION_FIELDS = [
  'id',
  'channel_type',
  'channel_id',
  'channel_user_id',
  'channel_user_username',
  'is_test_channel',
  'is_ai_chat_paused',
  'needs_attention',
  'last_message_at',
  'last_seen',
  'last_message_preview',
  'contact_id',
  'created_at',
  'updated_at',
  'agent_id',
  'status',
  'snoozed_until',
  'assignee',
  'labels',
  'priority',
  'handoff',
].sort();

describe('conversations and messages', () => {
  let t: TestApp;
  let agentId: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    // Without knowledge every reply is a hand-off: it leaves the AI running here (take-over has
    // its own spec, inbox-takeover).
    agentId = (await createAgent(t, { handoff_pauses_ai: false })).id;
    base = conversationsPath(agentId);
  });
  afterAll(() => t.close());

  describe('POST /conversations/messages', () => {
    it('creates the conversation on the first message and answers 201 with the message', async () => {
      const res = await t
        .api()
        .post(`${base}/messages`)
        .send({
          message: 'Hello!',
          channel_type: 'whatsapp',
          channel_user_id: '+2348011111111',
          channel_username: 'Ada',
        })
        .expect(201);
      expect(res.body).toEqual({
        message: 'Message sent successfully',
        data: {
          id: expect.any(String),
          conversation_id: expect.any(String),
          role: 'user',
          message: 'Hello!',
          message_type: 'text',
          created_at: expect.stringMatching(ISO_MS),
          attachments: [],
          action: null,
          author: { type: 'customer', id: null, name: null },
          private: false,
          delivery: null,
        },
      });
      const conversation = (
        await t.api().get(`${base}/${res.body.data.conversation_id}`).expect(200)
      ).body.data;
      expect(Object.keys(conversation).sort()).toEqual(
        [
          ...CONVERSATION_FIELDS,
          'full_name',
          'email',
          'phone_number',
          'profile_picture',
          'usage',
        ].sort(),
      );
      expect(conversation).toMatchObject({
        channel_type: 'whatsapp',
        channel_user_id: '+2348011111111',
        channel_user_username: 'Ada',
        is_test_channel: false,
        is_ai_chat_paused: false,
        last_seen: res.body.data.created_at,
        full_name: null,
        email: null,
        usage: { model_calls: 0, prompt_tokens: 0, completion_tokens: 0 },
      });
    });

    it('appends to the same conversation for the same channel user, and by conversation_id', async () => {
      const first = await sendAs(t, agentId, 'same-user', 'one');
      const second = await sendAs(t, agentId, 'same-user', 'two');
      expect(second.conversation_id).toBe(first.conversation_id);
      const test = await sendAs(t, agentId, 'same-user', 'three', { is_test_channel: true });
      expect(test.conversation_id).not.toBe(first.conversation_id);
      const byId = await t
        .api()
        .post(`${base}/messages`)
        .send({ message: 'four', conversation_id: first.conversation_id })
        .expect(201);
      expect(byId.body.data.conversation_id).toBe(first.conversation_id);
    });

    it("keeps the channel user's username current, and keeps it when a message has none", async () => {
      const username = async (conversationId: string) =>
        (await t.api().get(`${base}/${conversationId}`).expect(200)).body.data
          .channel_user_username;
      const first = await sendAs(t, agentId, 'renamed-user', 'one');
      expect(await username(first.conversation_id)).toBeNull();
      await sendAs(t, agentId, 'renamed-user', 'two', { channel_username: 'ada_l' });
      expect(await username(first.conversation_id)).toBe('ada_l');
      await sendAs(t, agentId, 'renamed-user', 'three');
      expect(await username(first.conversation_id)).toBe('ada_l');
      await sendAs(t, agentId, 'renamed-user', 'four', { channel_username: 'ada_lovelace' });
      expect(await username(first.conversation_id)).toBe('ada_lovelace');
    });

    it('creates exactly one conversation from 10 parallel first messages', async () => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t
            .api()
            .post(`${base}/messages`)
            .send({ message: `m${i}`, channel_type: 'webchat', channel_user_id: 'racer' }),
        ),
      );
      expect(responses.map((res) => res.status)).toEqual(Array(10).fill(201));
      const ids = new Set(responses.map((res) => res.body.data.conversation_id));
      expect(ids.size).toBe(1);
      const list = await t.api().get(`${base}?search=racer`).expect(200);
      expect(list.body.meta.total_count).toBe(1);
      await repliesSettled(t);
      const stored = await allMessages(t, agentId, [...ids][0]);
      expect(stored.filter((m) => m.role === 'user')).toHaveLength(10);
    });

    it('refuses a message with neither a conversation nor a channel user, and an unknown conversation', async () => {
      const neither = await t.api().post(`${base}/messages`).send({ message: 'x' }).expect(400);
      expect(neither.body.code).toBe('validation_error');
      expect(neither.body.message[0]).toMatch(/^conversation_id: /);
      await t
        .api()
        .post(`${base}/messages`)
        .send({ message: 'x', channel_type: 'webchat' })
        .expect(400);
      await t
        .api()
        .post(`${base}/messages`)
        .send({ message: 'x', conversation_id: '00000000-0000-7000-8000-000000000000' })
        .expect(404);
      await t
        .api()
        .post(`${base}/messages`)
        .send({ message: 'x', conversation_id: 'nope' })
        .expect(404);
    });

    it('validates the message', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ channel_type: 'webchat', channel_user_id: 'u' }, 'message: must not be empty'],
        [
          { message: 'x'.repeat(10_001), channel_type: 'webchat', channel_user_id: 'u' },
          'message: must be shorter than or equal to 10000 characters',
        ],
        [
          { message: 'x', role: 'system', channel_type: 'webchat', channel_user_id: 'u' },
          'role: must be one of the following values: user, assistant',
        ],
        [
          { message: 'x', channel_type: 'sms', channel_user_id: 'u' },
          'channel_type: must be one of the following values: webchat, whatsapp, instagram, messenger, telephony',
        ],
        [
          { message: 'x', channel_type: 'webchat', channel_user_id: 'u', attachments: [] },
          'attachments: is not allowed',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await t.api().post(`${base}/messages`).send(body).expect(400);
        expect(res.body.message).toContain(message);
      }
    });
  });

  describe('conversation state', () => {
    it('keeps last_message_at, last_message_preview and updated_at current', async () => {
      const first = await sendAs(t, agentId, 'state-user', 'First question');
      await repliesSettled(t);
      const operator = await sendTo(
        t,
        agentId,
        first.conversation_id,
        `Operator here ${'x'.repeat(300)}`,
        'assistant',
      );
      const conversation = (await t.api().get(`${base}/${first.conversation_id}`).expect(200)).body
        .data;
      expect(conversation.last_message_at).toBe(operator.created_at);
      expect(conversation.updated_at).toBe(operator.created_at);
      expect(conversation.last_message_preview).toBe(
        `Operator here ${'x'.repeat(300)}`.slice(0, 160),
      );
      expect(conversation.last_seen).toBe(first.created_at);
    });

    it('pauses and resumes AI replies', async () => {
      const first = await sendAs(t, agentId, 'pause-user', 'hi');
      await repliesSettled(t);
      const path = `${base}/${first.conversation_id}/ai-status`;
      const paused = await t.api().patch(path).send({ is_ai_chat_paused: true }).expect(200);
      expect(paused.body).toEqual({
        message: 'AI status updated successfully',
        data: { is_ai_chat_paused: true },
      });
      await sendTo(t, agentId, first.conversation_id, 'anyone there?');
      await repliesSettled(t);
      const whilePaused = await allMessages(t, agentId, first.conversation_id);
      expect(whilePaused.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      await t.api().patch(path).send({ is_ai_chat_paused: false }).expect(200);
      await sendTo(t, agentId, first.conversation_id, 'hello again');
      await repliesSettled(t);
      expect((await allMessages(t, agentId, first.conversation_id)).map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'user',
        'assistant',
      ]);
      await t.api().patch(path).send({ is_ai_chat_paused: 'yes' }).expect(400);
    });

    it('sends no reply to a human operator, nor while the agent is paused', async () => {
      const first = await sendAs(t, agentId, 'operator-user', 'hi');
      await repliesSettled(t);
      await sendTo(t, agentId, first.conversation_id, 'A person answering', 'assistant');
      await repliesSettled(t);
      expect((await allMessages(t, agentId, first.conversation_id)).map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'assistant',
      ]);

      const paused = await createAgent(t);
      await t
        .api()
        .patch(`${API}/agents/${paused.id}/live-status`)
        .send({ status: 'live' })
        .expect(200);
      await t
        .api()
        .patch(`${API}/agents/${paused.id}/live-status`)
        .send({ status: 'paused' })
        .expect(200);
      const message = await sendAs(t, paused.id, 'someone', 'hello?');
      await repliesSettled(t);
      expect((await allMessages(t, paused.id, message.conversation_id)).map((m) => m.role)).toEqual(
        ['user'],
      );
    });
  });

  describe('lists', () => {
    let solo: TestApp;
    let soloAgent: string;

    beforeAll(async () => {
      solo = await startTestApp();
      soloAgent = (await createAgent(solo, { handoff_pauses_ai: false })).id;
      // Each reply is settled before the next message, so the newest-first order (by the last
      // message) is the order of sending: replies to different conversations run concurrently.
      await sendAs(solo, soloAgent, 'alice', 'I need a refund', {
        channel_type: 'whatsapp',
        channel_username: 'alice_w',
      });
      await repliesSettled(solo);
      await sendAs(solo, soloAgent, 'bob', 'Opening hours?', { channel_type: 'webchat' });
      await repliesSettled(solo);
      await sendAs(solo, soloAgent, 'tester', 'Test message', {
        channel_type: 'whatsapp',
        is_test_channel: true,
      });
      await repliesSettled(solo);
    });
    afterAll(() => solo.close());

    const list = async (query: string) =>
      (
        await solo
          .api()
          .get(`${conversationsPath(soloAgent)}?${query}`)
          .expect(200)
      ).body;

    it('filters by channel (test_ for test channels) and flags', async () => {
      expect(
        (await list('channel=whatsapp')).data.map(
          (c: { channel_user_id: string }) => c.channel_user_id,
        ),
      ).toEqual(['alice']);
      expect(
        (await list('channel=test_whatsapp')).data.map(
          (c: { channel_user_id: string }) => c.channel_user_id,
        ),
      ).toEqual(['tester']);
      expect((await list('channel=webchat')).meta.total_count).toBe(1);
      expect((await list('is_test_channel=true')).meta.total_count).toBe(1);
      expect((await list('is_test_channel=false')).meta.total_count).toBe(2);
      expect((await list('needs_attention=true')).meta.total_count).toBe(3);
      expect((await list('is_ai_chat_paused=true')).meta.total_count).toBe(0);
      for (const bad of ['channel=sms', 'needs_attention=maybe', 'sort=channel_user_id']) {
        await solo
          .api()
          .get(`${conversationsPath(soloAgent)}?${bad}`)
          .expect(400);
      }
    });

    it('searches user id, username and preview, and sorts', async () => {
      expect(
        (await list('search=ALICE_W')).data.map(
          (c: { channel_user_id: string }) => c.channel_user_id,
        ),
      ).toEqual(['alice']);
      expect((await list('search=bob')).meta.total_count).toBe(1);
      const newestFirst = (await list('')).data.map(
        (c: { channel_user_id: string }) => c.channel_user_id,
      );
      expect(newestFirst).toEqual(['tester', 'bob', 'alice']);
      expect(
        (await list('sort=created_at')).data.map(
          (c: { channel_user_id: string }) => c.channel_user_id,
        ),
      ).toEqual(['alice', 'bob', 'tester']);
    });

    it('pages messages oldest first, searches them, and reads one', async () => {
      const conversation = (await list('search=alice')).data[0];
      const path = `${conversationsPath(soloAgent)}/${conversation.id}/messages`;
      const page = (await solo.api().get(`${path}?limit=1`).expect(200)).body;
      expect(page.data[0].message).toBe('I need a refund');
      expect(page.meta).toEqual({
        total_count: 2,
        page_count: 2,
        current_page: 1,
        limit: 1,
        has_next_page: true,
        has_previous_page: false,
      });
      const newest = (await solo.api().get(`${path}?sort=-created_at&limit=1`).expect(200)).body
        .data[0];
      expect(newest.role).toBe('assistant');
      expect(
        (await solo.api().get(`${path}?search=REFUND`).expect(200)).body.meta.total_count,
      ).toBe(1);
      const one = await solo.api().get(`${path}/${page.data[0].id}`).expect(200);
      expect(one.body.data).toEqual(page.data[0]);
      await solo.api().get(`${path}/00000000-0000-7000-8000-000000000000`).expect(404);
      await solo.api().get(`${path}?sort=role`).expect(400);
    });
  });

  describe('ordering', () => {
    it('numbers messages in a total order that listing and `after` agree on, even within one millisecond', async () => {
      const first = await sendAs(t, agentId, 'burst-user', 'start', { role: 'assistant' });
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          sendTo(t, agentId, first.conversation_id, `burst ${i}`, 'assistant'),
        ),
      );
      const listed = await allMessages(t, agentId, first.conversation_id);
      expect(listed).toHaveLength(41);
      const times = listed.map((m) => Date.parse(m.created_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(listed.map((m) => m.id)).size).toBe(41);
    });
  });

  describe('access', () => {
    it('answers 404 for another team and for unknown ids', async () => {
      const intruder = await t.createKey('conversations-intruder', ['*']);
      const message = await sendAs(t, agentId, 'private-user', 'secret');
      await t.api(intruder.key).get(`${base}/${message.conversation_id}`).expect(404);
      await t.api(intruder.key).get(`${base}`).expect(404);
      await t.api().get(`${base}/00000000-0000-7000-8000-000000000000`).expect(404);
    });

    it("answers 404 to a message for another team's conversation or agent, and writes nothing", async () => {
      const intruder = await t.createKey('conversations-writer-intruder', ['*']);
      const ownAgent = (await createAgent(t, {}, intruder.key)).id;
      const target = await sendAs(t, agentId, 'guarded-user', 'mine');
      await repliesSettled(t);
      const before = await t.api().get(`${base}/${target.conversation_id}`).expect(200);
      const stored = await allMessages(t, agentId, target.conversation_id);
      const attempts: Array<[string, Record<string, unknown>, string]> = [
        [`${conversationsPath(ownAgent)}/${target.conversation_id}/messages`, {}, 'Conversation'],
        [
          `${conversationsPath(ownAgent)}/messages`,
          { conversation_id: target.conversation_id },
          'Conversation',
        ],
        [`${base}/${target.conversation_id}/messages`, {}, 'Agent'],
        [`${base}/messages`, { channel_type: 'webchat', channel_user_id: 'guarded-user' }, 'Agent'],
        [`${base}/messages`, { channel_type: 'webchat', channel_user_id: 'new-user' }, 'Agent'],
      ];
      for (const [path, fields, kind] of attempts) {
        for (const role of ['user', 'assistant']) {
          const res = await t
            .api(intruder.key)
            .post(path)
            .send({ message: 'taken over', role, ...fields })
            .expect(404);
          expect(res.body.message).toBe(`${kind} not found`);
        }
      }
      await repliesSettled(t);
      const after = await t.api().get(`${base}/${target.conversation_id}`).expect(200);
      expect(after.body.data).toEqual(before.body.data);
      expect(await allMessages(t, agentId, target.conversation_id)).toEqual(stored);
      const list = await t.api().get(`${base}?search=new-user`).expect(200);
      expect(list.body.data).toEqual([]);
      const theirs = await t.api(intruder.key).get(conversationsPath(ownAgent)).expect(200);
      expect(theirs.body.data).toEqual([]);
    });

    it('requires the conversation scopes', async () => {
      const reader = await t.createKey('default', ['conversations:read']);
      await t.api(reader.key).get(base).expect(200);
      const refused = await t
        .api(reader.key)
        .post(`${base}/messages`)
        .send({ message: 'x', channel_type: 'webchat', channel_user_id: 'u' })
        .expect(403);
      expect(refused.body.message).toContain('conversations:write');
      const agentsOnly = await t.createKey('default', ['agents:read']);
      await t.api(agentsOnly.key).get(base).expect(403);
    });
  });
});
