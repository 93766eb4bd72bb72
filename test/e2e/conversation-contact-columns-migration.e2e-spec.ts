import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newId } from '@/common/ids';
import { SecretBox } from '@/config/secret-box';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { migrations } from '@/database/migrations';
import { DropConversationContactColumns1733173200000 } from '@/database/migrations/1733173200000-drop-conversation-contact-columns';
import { API, startTestApp, TestApp } from '../factories/test-app';
import {
  insertLegacyTeam,
  migrationTargets,
  seedPreviousRelease,
} from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';

const NOW = '2026-11-20 10:00:00.000';
const ID = Object.fromEntries(
  ['team', 'workflow', 'agent', 'kemi', 'visitor', 'bare'].map((name) => [name, newId()]),
);
const DETAILS = ['full_name', 'email', 'phone_number', 'profile_picture'];
const KEMI = {
  full_name: 'Kemi Adeyemi',
  email: 'kemi@example.com',
  phone_number: '+2348011111111',
  profile_picture: 'https://example.com/kemi.png',
};

/** Conversations as the release before contacts left them, their details on the conversation. */
async function legacyDatabase(url: string, secretKey: Buffer): Promise<void> {
  await seedPreviousRelease(
    url,
    secretKey,
    (all) => all.findIndex((migration) => migration.name === 'Contacts1733150400000'),
    async (insert) => {
      await insertLegacyTeam(
        insert,
        { id: ID.team, name: 'legacy', workflowId: ID.workflow, agents: [[ID.agent, 'LEGACY03']] },
        NOW,
      );
      const conversation = (id: string, channelType: string, user: string, details = {}) =>
        insert('conversations', {
          id,
          team_id: ID.team,
          agent_id: ID.agent,
          channel_type: channelType,
          channel_user_id: user,
          last_seq: 0,
          created_at: NOW,
          updated_at: NOW,
          ...details,
        });
      await conversation(ID.kemi, 'whatsapp', '+2348011111111', KEMI);
      // Not E.164: the contacts migration leaves the number behind.
      await conversation(ID.visitor, 'webchat', 'visitor-2', {
        email: 'visitor@example.com',
        phone_number: '0801 111 1111',
      });
      await conversation(ID.bare, 'webchat', 'visitor-3');
    },
  );
}

describe.each(migrationTargets())(
  "conversations' contact columns dropped, on %s",
  (_name, postgresUrl) => {
    let database: TestDatabase;
    let secretKey: Buffer;
    let t: TestApp | undefined;
    let key: string;

    const openDatabase = () =>
      new DataSource({
        ...dataSourceOptions(database.url, secretKey, 2),
        migrations: migrations(new SecretBox(secretKey)),
      }).initialize();

    const storedDetails = async (dataSource: DataSource) => {
      const rows = await dataSource.query<Array<Record<string, unknown>>>(
        `SELECT id, ${DETAILS.join(', ')} FROM conversations`,
      );
      return Object.fromEntries(rows.map(({ id, ...details }) => [id, details]));
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
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it("serves each conversation's details from its contact, the columns gone", async () => {
      const detail = async (id: string) =>
        (await t!.api(key).get(`${API}/agents/${ID.agent}/conversations/${id}`).expect(200)).body
          .data;
      expect(await detail(ID.kemi)).toMatchObject(KEMI);
      expect(await detail(ID.visitor)).toMatchObject({
        full_name: null,
        email: 'visitor@example.com',
        phone_number: null,
        profile_picture: null,
      });
      expect(await detail(ID.bare)).toMatchObject({ full_name: null, email: null });
      await t!.close();
      t = undefined;
      const dataSource = await openDatabase();
      try {
        const [row] = await dataSource.query<Array<Record<string, unknown>>>(
          'SELECT * FROM conversations',
        );
        expect(Object.keys(row).filter((column) => DETAILS.includes(column))).toEqual([]);
      } finally {
        await dataSource.destroy();
      }
    });

    it('restores the columns on the way back, filled from the contacts, and drops them again', async () => {
      const dataSource = await openDatabase();
      try {
        // Back to just before the drop: it and every later migration undone.
        const all = migrations(new SecretBox(secretKey));
        const undone = all.length - all.indexOf(DropConversationContactColumns1733173200000);
        for (let i = 0; i < undone; i++) {
          await dataSource.undoLastMigration();
        }
        expect(await storedDetails(dataSource)).toEqual({
          [ID.kemi]: KEMI,
          [ID.visitor]: {
            full_name: null,
            email: 'visitor@example.com',
            phone_number: null,
            profile_picture: null,
          },
          [ID.bare]: { full_name: null, email: null, phone_number: null, profile_picture: null },
        });
        await migrate(dataSource);
        const [row] = await dataSource.query<Array<Record<string, unknown>>>(
          'SELECT * FROM conversations',
        );
        expect(Object.keys(row).filter((column) => DETAILS.includes(column))).toEqual([]);
      } finally {
        await dataSource.destroy();
      }
    });
  },
);
