import { randomBytes } from 'node:crypto';
import { newId } from '@/common/ids';
import { Contacts1733150400000 } from '@/database/migrations/1733150400000-contacts';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { TeamsService } from '@/modules/auth/teams.service';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { migrationTargets, seedPreviousRelease } from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';

const CONTACT_FIELDS = [
  'id',
  'channel_type',
  'channel_user_id',
  'full_name',
  'email',
  'phone_number',
  'profile_picture',
  'notes',
  'created_at',
  'updated_at',
].sort();

/** docs/api.md §5a: contacts, made with a channel user's first message, listed and edited. */
describe('contacts', () => {
  let t: TestApp;
  let agentId: string;
  let otherAgentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    agentId = (await createAgent(t, { name: 'Ada' })).id;
    otherAgentId = (await createAgent(t, { name: 'Bola' })).id;
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
  });

  const contactsOf = async (query = '', key = t.key) =>
    (await t.api(key).get(`${API}/contacts${query}`).expect(200)).body;
  const contactOf = async (conversationId: string, agent = agentId) =>
    (
      await t
        .api()
        .get(`${conversationsPath(agent)}/${conversationId}`)
        .expect(200)
    ).body.data;
  const contactDetail = async (id: string) =>
    (await t.api().get(`${API}/contacts/${id}`).expect(200)).body.data;

  it('is created with the first message, one per channel user, and shared by their conversations', async () => {
    const first = await sendAs(t, agentId, 'first-1', 'Hello');
    const conversation = await contactOf(first.conversation_id);
    expect(conversation.contact_id).toEqual(expect.any(String));
    const contact = await contactDetail(conversation.contact_id);
    expect(Object.keys(contact).sort()).toEqual([...CONTACT_FIELDS, 'conversation_ids'].sort());
    expect(contact).toMatchObject({
      channel_type: 'webchat',
      channel_user_id: 'first-1',
      full_name: null,
      email: null,
      phone_number: null,
      profile_picture: null,
      notes: null,
      conversation_ids: [first.conversation_id],
    });
    await sendAs(t, agentId, 'first-1', 'Again');
    const other = await sendAs(t, otherAgentId, 'first-1', 'Hello Bola');
    const test = await sendAs(t, agentId, 'first-1', 'Test', { is_test_channel: true });
    expect((await contactOf(other.conversation_id, otherAgentId)).contact_id).toBe(contact.id);
    expect((await contactDetail(contact.id)).conversation_ids.sort()).toEqual(
      [first.conversation_id, other.conversation_id, test.conversation_id].sort(),
    );
    const whatsapp = await sendAs(t, agentId, 'first-1', 'On WhatsApp', {
      channel_type: 'whatsapp',
    });
    expect((await contactOf(whatsapp.conversation_id)).contact_id).not.toBe(contact.id);
    expect((await contactsOf('?search=first-1')).meta.total_count).toBe(0);
  });

  it('is made once when first messages arrive at the same time', async () => {
    const sent = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        sendAs(t, index % 2 === 0 ? agentId : otherAgentId, 'race-1', `Hi ${index}`),
      ),
    );
    const contactIds = new Set(
      await Promise.all(
        sent.map(
          async (message, index) =>
            (await contactOf(message.conversation_id, index % 2 === 0 ? agentId : otherAgentId))
              .contact_id,
        ),
      ),
    );
    expect(contactIds.size).toBe(1);
    const [contactId] = [...contactIds];
    expect((await contactDetail(contactId)).conversation_ids).toHaveLength(2);
    const rows = await t
      .dataSource()
      .query(`SELECT id FROM contacts WHERE channel_user_id = 'race-1'`);
    expect(rows).toHaveLength(1);
  });

  it('is filled by `contact` on POST, and the conversation detail shows it', async () => {
    const sent = await sendAs(t, agentId, 'filled-1', 'Hello', {
      contact: {
        full_name: 'Kemi Adeyemi',
        email: 'kemi@example.com',
        phone_number: '+2348011111111',
      },
    });
    const conversation = await contactOf(sent.conversation_id);
    expect(conversation).toMatchObject({
      full_name: 'Kemi Adeyemi',
      email: 'kemi@example.com',
      phone_number: '+2348011111111',
      profile_picture: null,
    });
    // Later messages fill only what is still empty: what is known is kept.
    await sendAs(t, agentId, 'filled-1', 'Again', {
      contact: { full_name: 'Someone Else', email: null },
    });
    await t
      .api()
      .patch(`${API}/contacts/${conversation.contact_id}`)
      .send({ email: null })
      .expect(200);
    await t
      .api()
      .post(`${conversationsPath(agentId)}/${sent.conversation_id}/messages`)
      .send({ message: 'My new email', contact: { email: 'kemi@shop.example' } })
      .expect(201);
    expect(await contactDetail(conversation.contact_id)).toMatchObject({
      full_name: 'Kemi Adeyemi',
      email: 'kemi@shop.example',
      phone_number: '+2348011111111',
    });
  });

  it('refuses a `contact` on POST that does not validate, storing nothing', async () => {
    const res = await t
      .api()
      .post(`${conversationsPath(agentId)}/messages`)
      .send({
        message: 'Hello',
        channel_type: 'webchat',
        channel_user_id: 'invalid-1',
        contact: { email: 'not-an-email', phone_number: '08011111111', age: 3 },
      })
      .expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^contact\.email: /),
        expect.stringMatching(/^contact\.phone_number: /),
        expect.stringMatching(/^contact\.age: /),
      ]),
    );
    expect((await contactsOf('?search=invalid')).data).toEqual([]);
  });

  describe('list', () => {
    let team: string;
    beforeAll(async () => {
      const { key } = await t.createKey('contacts-list', ['*']);
      team = key;
      const agent = (await createAgent(t, { name: 'Listed' }, key)).id;
      const people: Array<[string, Record<string, string>]> = [
        ['list-a', { full_name: 'Zainab Musa', email: 'zainab@example.com' }],
        ['list-b', { full_name: 'Ada Obi', phone_number: '+2348022222222' }],
        ['list-c', { full_name: 'Musa Bello' }],
      ];
      for (const [user, contact] of people) {
        await sendAs(t, agent, user, 'Hello', { contact, role: 'assistant' }, key);
      }
    });

    it('pages, searches over name, email and phone, and sorts', async () => {
      const all = await contactsOf('', team);
      expect(all.meta).toMatchObject({ total_count: 3, limit: 20, page_count: 1 });
      expect(Object.keys(all.data[0]).sort()).toEqual(CONTACT_FIELDS);
      // Newest first by default.
      expect(all.data.map((c: any) => c.channel_user_id)).toEqual(['list-c', 'list-b', 'list-a']);
      const byName = await contactsOf('?sort=full_name', team);
      expect(byName.data.map((c: any) => c.full_name)).toEqual([
        'Ada Obi',
        'Musa Bello',
        'Zainab Musa',
      ]);
      const musa = await contactsOf('?search=MUSA&sort=-full_name', team);
      expect(musa.data.map((c: any) => c.full_name)).toEqual(['Zainab Musa', 'Musa Bello']);
      expect((await contactsOf('?search=zainab@', team)).meta.total_count).toBe(1);
      expect((await contactsOf('?search=8022222', team)).data[0].full_name).toBe('Ada Obi');
      const second = await contactsOf('?limit=2&page=2&sort=created_at', team);
      expect(second.data.map((c: any) => c.channel_user_id)).toEqual(['list-c']);
      expect(second.meta).toMatchObject({ total_count: 3, page_count: 2 });
      expect((await contactsOf('?page=5', team)).data).toEqual([]);
    });

    it('refuses an unknown sort field or query parameter', async () => {
      for (const query of ['?sort=email', '?status=open', '?limit=101']) {
        const res = await t.api(team).get(`${API}/contacts${query}`).expect(400);
        expect(res.body.code).toBe('validation_error');
      }
    });
  });

  describe('PATCH', () => {
    let contactId: string;
    beforeAll(async () => {
      const sent = await sendAs(t, agentId, 'patch-1', 'Hello');
      contactId = (await contactOf(sent.conversation_id)).contact_id;
    });

    it('edits the name, email, phone number and notes, and clears them with null', async () => {
      const res = await t
        .api()
        .patch(`${API}/contacts/${contactId}`)
        .send({
          full_name: 'Tunde Bakare',
          email: 'tunde@example.com',
          phone_number: '+14155550123',
          notes: 'Prefers WhatsApp',
        })
        .expect(200);
      expect(res.body.message).toBe('Contact updated successfully');
      expect(res.body.data).toMatchObject({
        id: contactId,
        full_name: 'Tunde Bakare',
        email: 'tunde@example.com',
        phone_number: '+14155550123',
        notes: 'Prefers WhatsApp',
        conversation_ids: [expect.any(String)],
      });
      expect(res.body.data.updated_at > res.body.data.created_at).toBe(true);
      const cleared = await t
        .api()
        .patch(`${API}/contacts/${contactId}`)
        .send({ email: null })
        .expect(200);
      expect(cleared.body.data).toMatchObject({ full_name: 'Tunde Bakare', email: null });
    });

    it('refuses a bad email, a number not in E.164, an over-long name and unknown fields', async () => {
      const res = await t
        .api()
        .patch(`${API}/contacts/${contactId}`)
        .send({
          email: 'tunde@',
          phone_number: '+0123',
          full_name: 'x'.repeat(256),
          channel_user_id: 'other',
        })
        .expect(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.message).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^email: /),
          'phone_number: must be an E.164 phone number (e.g. +14155550123)',
          expect.stringMatching(/^full_name: /),
          expect.stringMatching(/^channel_user_id: /),
        ]),
      );
      expect((await contactDetail(contactId)).full_name).toBe('Tunde Bakare');
    });

    it('answers 404 for an unknown or malformed id', async () => {
      await t.api().patch(`${API}/contacts/${newId()}`).send({ notes: 'x' }).expect(404);
      await t.api().get(`${API}/contacts/not-an-id`).expect(404);
    });
  });

  describe('access', () => {
    let contactId: string;
    beforeAll(async () => {
      const sent = await sendAs(t, agentId, 'access-1', 'Hello');
      contactId = (await contactOf(sent.conversation_id)).contact_id;
    });

    it('reads with conversations:read and edits with inbox:write only', async () => {
      const { key: reader } = await t.createKey('default', ['conversations:read']);
      await t.api(reader).get(`${API}/contacts`).expect(200);
      await t.api(reader).get(`${API}/contacts/${contactId}`).expect(200);
      const refused = await t
        .api(reader)
        .patch(`${API}/contacts/${contactId}`)
        .send({ notes: 'x' })
        .expect(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope' });
      expect(refused.body.message).toContain('inbox:write');
      const { key: writer } = await t.createKey('default', ['inbox:write']);
      await t.api(writer).get(`${API}/contacts`).expect(403);
      await t
        .api(writer)
        .patch(`${API}/contacts/${contactId}`)
        .send({ notes: 'Allowed' })
        .expect(200);
    });

    it("hides another team's contact (404) and lists only the team's own", async () => {
      const { key: stranger } = await t.createKey('contacts-stranger', ['*']);
      await t.api(stranger).get(`${API}/contacts/${contactId}`).expect(404);
      await t.api(stranger).patch(`${API}/contacts/${contactId}`).send({ notes: 'x' }).expect(404);
      expect((await contactsOf('', stranger)).meta.total_count).toBe(0);
      expect((await contactDetail(contactId)).notes).toBe('Allowed');
    });

    it('refuses a key limited to some agents: contacts are team-wide (403)', async () => {
      const teamId = (await t.app.get(TeamsService).findByName('default'))!.id;
      const limited = await t.app.get(ApiKeysService).createForAgents(teamId, ['*'], [agentId]);
      if ('notAgents' in limited) {
        throw new Error('not agents');
      }
      for (const request of [
        t.api(limited.key).get(`${API}/contacts`),
        t.api(limited.key).get(`${API}/contacts/${contactId}`),
        t.api(limited.key).patch(`${API}/contacts/${contactId}`).send({ notes: 'x' }),
      ]) {
        const res = await request.expect(403);
        expect(res.body.code).toBe('forbidden');
      }
    });
  });
});

const LEGACY = Object.fromEntries(
  ['team', 'workflow', 'agent', 'otherAgent', 'a', 'b', 'c'].map((name) => [name, newId()]),
);

/** A database migrated up to the release before contacts, holding three conversations. */
async function legacyConversations(url: string, secretKey: Buffer): Promise<void> {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));
  await seedPreviousRelease(
    url,
    secretKey,
    (all) => all.indexOf(Contacts1733150400000),
    async (insert) => {
      await insert('teams', { id: LEGACY.team, name: 'legacy-contacts', created_at: at(0) });
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
      for (const [id, code] of [
        [LEGACY.agent, 'LEGACY28'],
        [LEGACY.otherAgent, 'LEGACY29'],
      ]) {
        await insert('agents', {
          id,
          team_id: LEGACY.team,
          workflow_id: LEGACY.workflow,
          name: 'Legacy',
          description: 'From the previous release',
          test_channel_code: code,
          status: 'development',
          created_at: at(0),
          updated_at: at(0),
        });
      }
      const conversations: Array<[string, string, string, string, number, string | null]> = [
        [LEGACY.a, LEGACY.agent, 'whatsapp', '+2348033333333', 1, 'Chidi Okafor'],
        [LEGACY.b, LEGACY.otherAgent, 'whatsapp', '+2348033333333', 5, null],
        [LEGACY.c, LEGACY.agent, 'webchat', 'visitor-9', 3, null],
      ];
      for (const [id, agent, channel, user, minute, name] of conversations) {
        await insert('conversations', {
          id,
          team_id: LEGACY.team,
          agent_id: agent,
          channel_type: channel,
          channel_user_id: user,
          full_name: name,
          last_seq: 0,
          created_at: at(minute),
          updated_at: at(minute),
        });
      }
    },
  );
}

const targets = migrationTargets();

describe.each(targets)("contacts of the previous release's conversations, on %s", (_name, url) => {
  let database: TestDatabase;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase(url);
    const secretKey = randomBytes(32);
    await legacyConversations(database.url, secretKey);
    t = await startTestApp({
      DATABASE_URL: database.url,
      CONSOLE_SECRET_KEY: secretKey.toString('hex'),
    });
    key = (await t.createKey('legacy-contacts', ['*'])).key;
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('gives each channel user one contact, linked from each of their conversations', async () => {
    const list = (await t.api(key).get(`${API}/contacts?sort=created_at`).expect(200)).body;
    expect(list.data).toEqual([
      expect.objectContaining({
        channel_type: 'whatsapp',
        channel_user_id: '+2348033333333',
        full_name: 'Chidi Okafor',
        created_at: '2026-11-20T10:01:00.000Z',
        updated_at: '2026-11-20T10:05:00.000Z',
      }),
      expect.objectContaining({
        channel_type: 'webchat',
        channel_user_id: 'visitor-9',
        full_name: null,
      }),
    ]);
    const chidi = (await t.api(key).get(`${API}/contacts/${list.data[0].id}`).expect(200)).body
      .data;
    expect(chidi.conversation_ids).toEqual([LEGACY.a, LEGACY.b]);
    const detail = (
      await t
        .api(key)
        .get(`${conversationsPath(LEGACY.otherAgent)}/${LEGACY.b}`)
        .expect(200)
    ).body.data;
    expect(detail).toMatchObject({ contact_id: chidi.id, full_name: 'Chidi Okafor' });
    // A new message from a known channel user finds their contact.
    const sent = await sendAs(
      t,
      LEGACY.agent,
      'visitor-9',
      'Back again',
      {
        role: 'assistant',
        channel_type: 'webchat',
      },
      key,
    );
    expect(sent.conversation_id).toBe(LEGACY.c);
    const fresh = await sendAs(t, LEGACY.otherAgent, 'visitor-9', 'Hi', { role: 'assistant' }, key);
    const visitor = (await t.api(key).get(`${API}/contacts/${list.data[1].id}`).expect(200)).body
      .data;
    expect(visitor.conversation_ids).toEqual([LEGACY.c, fresh.conversation_id]);
  });
});
