import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from '@/config/secret-box';
import { newId } from '@/common/ids';
import { dataSourceOptions } from '@/database/data-source-options';
import { migrate } from '@/database/migrate';
import { migrations } from '@/database/migrations';
import { pendingSchemaChanges } from '@/database/schema-drift';
import { startTestApp } from '../factories/test-app';
import { createTestDatabase, TestDatabase } from '../factories/test-database';

/**
 * On the database of the run (TEST_POSTGRES_URL, else SQLite): the entities describe the schema
 * the migrations create, so that `migration:generate` on an up-to-date database writes nothing.
 */
describe('The migrated schema', () => {
  it('is the one the served entities describe: TypeORM finds nothing to change', async () => {
    const t = await startTestApp();
    try {
      expect(await pendingSchemaChanges(t.dataSource())).toEqual([]);
    } finally {
      await t.close();
    }
  });

  describe('KnowledgeFaqKey, on a database of the previous release', () => {
    let database: TestDatabase;
    let dataSource: DataSource;
    const teamId = newId();
    const workflowId = newId();
    const now = new Date();

    beforeAll(async () => {
      database = await createTestDatabase();
      const secretKey = randomBytes(32);
      const all = migrations(new SecretBox(secretKey));
      const previous = await new DataSource({
        ...dataSourceOptions(database.url, secretKey, 2),
        migrations: all.slice(0, -1),
      }).initialize();
      try {
        await migrate(previous);
        await previous.manager
          .createQueryBuilder()
          .insert()
          .into('teams')
          .values({ id: teamId, name: `faq ${teamId}`, created_at: now })
          .execute();
        await previous.manager
          .createQueryBuilder()
          .insert()
          .into('workflows')
          .values({
            id: workflowId,
            team_id: teamId,
            name: 'With a FAQ',
            visibility: 'private',
            ...Object.fromEntries(
              ['rules', 'flows', 'tags', 'integrations', 'channels', 'actions', 'faq'].map(
                (column) => [column, '[]'],
              ),
            ),
            setup_steps: '[]',
            created_at: now,
            updated_at: now,
          })
          .execute();
        await previous.query(
          previous.options.type === 'postgres'
            ? 'INSERT INTO "knowledge_faq_versions" ("workflow_id", "digest") VALUES ($1, $2)'
            : 'INSERT INTO "knowledge_faq_versions" ("workflow_id", "digest") VALUES (?, ?)',
          [workflowId, 'a'.repeat(64)],
        );
      } finally {
        await previous.destroy();
      }
      dataSource = await new DataSource({
        ...dataSourceOptions(database.url, secretKey, 2),
        migrations: all,
      }).initialize();
      await migrate(dataSource);
    });

    afterAll(async () => {
      await dataSource?.destroy();
      await database?.drop();
    });

    const digests = () =>
      dataSource.query<{ workflow_id: string; digest: string }[]>(
        'SELECT "workflow_id", "digest" FROM "knowledge_faq_versions"',
      );

    it('keeps the digests, and a workflow deleted takes its digest along', async () => {
      expect(await digests()).toEqual([{ workflow_id: workflowId, digest: 'a'.repeat(64) }]);
      await dataSource.query(
        dataSource.options.type === 'postgres'
          ? 'DELETE FROM "workflows" WHERE "id" = $1'
          : 'DELETE FROM "workflows" WHERE "id" = ?',
        [workflowId],
      );
      expect(await digests()).toEqual([]);
    });
  });
});
