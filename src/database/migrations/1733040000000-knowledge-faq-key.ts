import { MigrationInterface, QueryRunner } from 'typeorm';

/** TypeORM's name for the foreign key knowledge_faq_versions.workflow_id → workflows.id. */
const FOREIGN_KEY = 'FK_e90fae43f5ee59ce8f6458717e2';
const POSTGRES_FOREIGN_KEY = 'knowledge_faq_versions_workflow_id_fkey';

const SQLITE_TABLE = `CREATE TABLE "knowledge_faq_versions_new" (
  "workflow_id" varchar(36) PRIMARY KEY NOT NULL,
  "digest" varchar(64) NOT NULL,
  CONSTRAINT "${FOREIGN_KEY}" FOREIGN KEY ("workflow_id") REFERENCES "workflows" ("id")
    ON DELETE CASCADE
)`;

const FORMER_SQLITE_TABLE = `CREATE TABLE "knowledge_faq_versions_new" (
  "workflow_id" varchar(36) PRIMARY KEY REFERENCES "workflows" ("id") ON DELETE CASCADE,
  "digest" varchar(64) NOT NULL
)`;

/**
 * knowledge_faq_versions as its entity describes it, so that TypeORM's schema diff (what
 * migration:generate writes) finds nothing to change. The migration that made it wrote the table
 * by hand: on SQLite its key allowed NULL (there PRIMARY KEY implies NOT NULL only for an integer
 * key) and its foreign key had no name; on PostgreSQL the foreign key took PostgreSQL's name. No
 * entity can name a constraint differently per database, so the constraint takes TypeORM's name.
 */
export class KnowledgeFaqKey1733040000000 implements MigrationInterface {
  name = 'KnowledgeFaqKey1733040000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(
        `ALTER TABLE "knowledge_faq_versions"
         RENAME CONSTRAINT "${POSTGRES_FOREIGN_KEY}" TO "${FOREIGN_KEY}"`,
      );
    } else {
      await rebuildOnSqlite(queryRunner, SQLITE_TABLE);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(
        `ALTER TABLE "knowledge_faq_versions"
         RENAME CONSTRAINT "${FOREIGN_KEY}" TO "${POSTGRES_FOREIGN_KEY}"`,
      );
    } else {
      await rebuildOnSqlite(queryRunner, FORMER_SQLITE_TABLE);
    }
  }
}

/** SQLite cannot alter a column or a constraint: the table is made anew and its rows copied. */
async function rebuildOnSqlite(queryRunner: QueryRunner, createTable: string): Promise<void> {
  await queryRunner.query(createTable);
  // A digest without its workflow stands for nothing (and the new key takes no NULL).
  await queryRunner.query(
    `INSERT INTO "knowledge_faq_versions_new" ("workflow_id", "digest")
     SELECT "workflow_id", "digest" FROM "knowledge_faq_versions" WHERE "workflow_id" IS NOT NULL`,
  );
  await queryRunner.query('DROP TABLE "knowledge_faq_versions"');
  await queryRunner.query(
    'ALTER TABLE "knowledge_faq_versions_new" RENAME TO "knowledge_faq_versions"',
  );
}
