import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newId } from '@/common/ids';
import { SecretBox } from '@/config/secret-box';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { migrations } from '@/database/migrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import {
  insertLegacyTeam,
  migrationTargets,
  seedPreviousRelease,
} from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';

const NOW = '2026-11-20 10:00:00.000';
const ID = Object.fromEntries(
  ['team', 'workflow', 'agent', 'kemi', 'ola', 'bare'].map((name) => [name, newId()]),
);
/**
 * The larger id gets the older last message: a page ordered on label rows whose copy of the time
 * were missing would fall back to the tie-breaker (id, descending) and come out the other way.
 */
const [OLDER, NEWER] = [ID.kemi, ID.ola].sort().reverse();
const LAST_MESSAGE_AT = { [OLDER]: '2026-11-20 09:00:00.000', [NEWER]: '2026-11-20 09:30:00.000' };
/** More labelled conversations than the backfill reads (1,000) or writes (200) per statement. */
const BULK = 1_050;

/** Labelled conversations as the release before the label rows left them. */
async function legacyDatabase(url: string, secretKey: Buffer): Promise<void> {
  await seedPreviousRelease(
    url,
    secretKey,
    (all) => all.findIndex((migration) => migration.name === 'ConversationLabels1733180400000'),
    async (insert) => {
      await insertLegacyTeam(
        insert,
        { id: ID.team, name: 'legacy', workflowId: ID.workflow, agents: [[ID.agent, 'LEGACY04']] },
        NOW,
      );
      const conversation = (id: string, user: string, inbox: Record<string, unknown>) =>
        insert('conversations', {
          id,
          team_id: ID.team,
          agent_id: ID.agent,
          channel_type: 'webchat',
          channel_user_id: user,
          last_seq: 0,
          created_at: NOW,
          updated_at: NOW,
          last_message_at: LAST_MESSAGE_AT[id] ?? null,
          ...inbox,
        });
      await conversation(ID.kemi, 'kemi', {
        labels: '["vip","refund"]',
        assignee_id: 'op-1',
        assignee_name: 'Kemi',
      });
      await conversation(ID.ola, 'ola', { labels: '["vip","vip"]', status: 'resolved' });
      await conversation(ID.bare, 'bare', {});
      for (let i = 0; i < BULK; i++) {
        await conversation(newId(), `bulk-${i}`, { labels: '["bulk"]', status: 'pending' });
      }
    },
  );
}

describe.each(migrationTargets())('label rows backfilled, on %s', (_name, postgresUrl) => {
  let database: TestDatabase;
  let secretKey: Buffer;
  let t: TestApp | undefined;
  let key: string;

  const labelRows = async () => {
    const dataSource = await new DataSource({
      ...dataSourceOptions(database.url, secretKey, 2),
      migrations: migrations(new SecretBox(secretKey)),
    }).initialize();
    try {
      return await dataSource.query<Array<Record<string, unknown>>>(
        `SELECT conversation_id, label, team_id, status, assignee_id FROM conversation_labels
         WHERE label <> 'bulk' ORDER BY conversation_id, label`,
      );
    } finally {
      await dataSource.destroy();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl);
    secretKey = randomBytes(32);
    await legacyDatabase(database.url, secretKey);
    t = await startTestApp({
      DATABASE_URL: database.url,
      CONSOLE_SECRET_KEY: secretKey.toString('hex'),
    });
    key = (await t.createKey('legacy', ['*'])).key;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('filters the old conversations by their labels, with their status, assignee and last message', async () => {
    const queue = async (query: string) => {
      const res = await t!.api(key).get(`${API}/conversations?limit=5&${query}`).expect(200);
      return {
        total: res.body.meta.total_count,
        ids: res.body.data.map((c: { id: string }) => c.id).sort(),
      };
    };
    expect(await queue('label=vip')).toEqual({ total: 2, ids: [ID.kemi, ID.ola].sort() });
    expect(await queue('label=vip&status=open&assignee_id=op-1')).toEqual({
      total: 1,
      ids: [ID.kemi],
    });
    expect(await queue('label=vip&assignee_id=none')).toEqual({ total: 1, ids: [ID.ola] });
    expect(await queue('label=refund&status=resolved')).toEqual({ total: 0, ids: [] });
    expect((await queue('label=bulk&status=pending')).total).toBe(BULK);
    const latestFirst = await t!.api(key).get(`${API}/conversations?label=vip`).expect(200);
    expect(latestFirst.body.data.map((c: { id: string }) => c.id)).toEqual([NEWER, OLDER]);
    const detail = await t!.api(key).get(`${API}/agents/${ID.agent}/conversations/${ID.kemi}`);
    expect(detail.body.data.labels).toEqual(['vip', 'refund']);
  });

  it('drops the rows on the way back and writes them again', async () => {
    await t!.close();
    t = undefined;
    const expected = [
      { conversation_id: ID.kemi, label: 'refund', status: 'open', assignee_id: 'op-1' },
      { conversation_id: ID.kemi, label: 'vip', status: 'open', assignee_id: 'op-1' },
      { conversation_id: ID.ola, label: 'vip', status: 'resolved', assignee_id: null },
    ]
      .map((row) => ({ ...row, team_id: ID.team }))
      .sort((a, b) => (a.conversation_id + a.label < b.conversation_id + b.label ? -1 : 1));
    expect(await labelRows()).toEqual(expected);
    const dataSource = await new DataSource({
      ...dataSourceOptions(database.url, secretKey, 2),
      migrations: migrations(new SecretBox(secretKey)),
    }).initialize();
    try {
      // Back to before the labels: it and every migration since, newest first.
      const all = migrations(new SecretBox(secretKey));
      const labels = all.findIndex(
        (migration) => migration.name === 'ConversationLabels1733180400000',
      );
      for (let undone = all.length; undone > labels; undone--) {
        await dataSource.undoLastMigration();
      }
      const tables = await dataSource.query<unknown[]>(
        postgresUrl
          ? "SELECT 1 FROM information_schema.tables WHERE table_name = 'conversation_labels'"
          : "SELECT 1 FROM sqlite_master WHERE name = 'conversation_labels'",
      );
      expect(tables).toHaveLength(0);
      await migrate(dataSource);
    } finally {
      await dataSource.destroy();
    }
    expect(await labelRows()).toEqual(expected);
  });
});
