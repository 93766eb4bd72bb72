import { randomBytes } from 'node:crypto';
import { newId } from '@/common/ids';
import { allMessages, repliesSettled } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { migrationTargets, seedPreviousRelease } from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { pollUntil } from '../support/wait';

const NOW = '2026-11-20 10:00:00.000';
const ID = Object.fromEntries(
  ['team', 'workflow', 'agent', 'text', 'url', 'p1', 'p2'].map((name) => [name, newId()]),
);

/** The database as the previous release left it: text items with their passages, a URL item. */
async function legacyDatabase(url: string, secretKey: Buffer): Promise<void> {
  await seedPreviousRelease(
    url,
    secretKey,
    () => 4,
    async (insert) => {
      await insert('teams', { id: ID.team, name: 'legacy', created_at: NOW });
      await insert('workflows', {
        id: ID.workflow,
        team_id: ID.team,
        name: 'Legacy',
        visibility: 'private',
        ...Object.fromEntries(
          ['rules', 'flows', 'tags', 'integrations', 'channels', 'actions', 'setup_steps'].map(
            (column) => [column, '[]'],
          ),
        ),
        faq: JSON.stringify([
          { question: 'Do you ship abroad?', answer: 'We ship to all of Europe.' },
        ]),
        created_at: NOW,
        updated_at: NOW,
      });
      await insert('agents', {
        id: ID.agent,
        team_id: ID.team,
        workflow_id: ID.workflow,
        name: 'Legacy',
        description: 'From the previous release',
        test_channel_code: 'LEGACY02',
        status: 'development',
        created_at: NOW,
        updated_at: NOW,
      });
      const item = (id: string, type: string, extra: Record<string, unknown>) =>
        insert('knowledge_bases', {
          id,
          team_id: ID.team,
          agent_id: ID.agent,
          type,
          name: type,
          created_at: NOW,
          updated_at: NOW,
          ...extra,
        });
      await item(ID.text, 'text', {
        content: 'Opening hours: 9 to 17.\n\nRéparations de vélos le samedi matin.',
      });
      await item(ID.url, 'url', { url: 'http://127.0.0.1:9/legacy' });
      for (const [position, content] of [
        'Opening hours: 9 to 17.',
        'Réparations de vélos le samedi matin.',
      ].entries()) {
        await insert('knowledge_passages', {
          id: position === 0 ? ID.p1 : ID.p2,
          agent_id: ID.agent,
          knowledge_base_id: ID.text,
          position,
          content,
        });
      }
    },
  );
}

const targets = migrationTargets();

describe.each(targets)('knowledge from the previous release, on %s', (_name, postgresUrl) => {
  let database: TestDatabase;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl);
    const secretKey = randomBytes(32);
    await legacyDatabase(database.url, secretKey);
    t = await startTestApp({
      DATABASE_URL: database.url,
      CONSOLE_SECRET_KEY: secretKey.toString('hex'),
      OUTBOUND_ALLOW_PRIVATE: 'false',
    });
    key = (await t.createKey('legacy', ['*'])).key;
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const ask = async (question: string) => {
    const res = await t
      .api(key)
      .post(`${API}/agents/${ID.agent}/conversations/messages`)
      .send({ message: question, channel_type: 'webchat', channel_user_id: newId() })
      .expect(201);
    await repliesSettled(t);
    const messages = await allMessages(t, ID.agent, res.body.data.conversation_id, key);
    return messages.filter((m) => m.role === 'assistant').at(-1)!.message;
  };

  it('keeps text items ready with their passages searchable, and fetches URL items', async () => {
    const base = `${API}/agents/${ID.agent}/knowledge_bases`;
    const text = (await t.api(key).get(`${base}/${ID.text}`).expect(200)).body.data;
    expect(text).toMatchObject({ status: 'ready', error: null, fetched_at: null });
    expect(await ask('reparation velo samedi?')).toBe('Réparations de vélos le samedi matin.');
    expect(await ask('what are your opening hours')).toBe('Opening hours: 9 to 17.');
    expect(await ask('do you ship abroad')).toBe('We ship to all of Europe.');
    // Pending after the migration; fetched by the worker, refused (private networks are not).
    const { value } = await pollUntil(
      async () => (await t.api(key).get(`${base}/${ID.url}`).expect(200)).body.data,
      (kb) => kb.status !== 'pending',
      10_000,
      50,
    );
    expect(value).toMatchObject({
      status: 'failed',
      error: 'the address resolves to a private network address (127.0.0.1)',
    });
  });
});
