import { MigrationInterface, QueryRunner } from 'typeorm';

type Row = Record<string, unknown>;

const isPostgres = (queryRunner: QueryRunner) => queryRunner.connection.options.type === 'postgres';

/** As the passages repository folds text and names owners when it indexes them. */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
const compounds = (text: string) =>
  (fold(text).match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu) ?? [])
    .map((compound) => compound.replace(/-/g, ''))
    .join(' ');
const ownerToken = (id: string) => `o${id.toLowerCase().replace(/[^0-9a-z]/g, '')}`;

const SQLITE_PASSAGES = `
  CREATE TABLE "knowledge_passages" (
    "seq" integer PRIMARY KEY,
    "id" varchar(36) NOT NULL UNIQUE,
    "team_id" varchar(36),
    "agent_id" varchar(36) REFERENCES "agents" ("id") ON DELETE CASCADE,
    "knowledge_base_id" varchar(36) REFERENCES "knowledge_bases" ("id") ON DELETE CASCADE,
    "workflow_id" varchar(36) REFERENCES "workflows" ("id") ON DELETE CASCADE,
    "source" varchar(8) NOT NULL,
    "position" integer NOT NULL,
    "owner_key" varchar(40) NOT NULL,
    "title" text NOT NULL,
    "content" text NOT NULL,
    "terms" text NOT NULL
  )`;

/** FTS5 over the passages' own columns (external content), kept in step by triggers. */
const SQLITE_INDEX = [
  `CREATE VIRTUAL TABLE "knowledge_fts" USING fts5(owner_key, title, content, terms,
     content='knowledge_passages', content_rowid='seq',
     tokenize='unicode61 remove_diacritics 2', prefix='4 5 6')`,
  `CREATE TRIGGER "knowledge_passages_ai" AFTER INSERT ON "knowledge_passages" BEGIN
     INSERT INTO "knowledge_fts" (rowid, owner_key, title, content, terms)
     VALUES (new.seq, new.owner_key, new.title, new.content, new.terms);
   END`,
  `CREATE TRIGGER "knowledge_passages_ad" AFTER DELETE ON "knowledge_passages" BEGIN
     INSERT INTO "knowledge_fts" ("knowledge_fts", rowid, owner_key, title, content, terms)
     VALUES ('delete', old.seq, old.owner_key, old.title, old.content, old.terms);
   END`,
  `CREATE TRIGGER "knowledge_passages_au" AFTER UPDATE ON "knowledge_passages" BEGIN
     INSERT INTO "knowledge_fts" ("knowledge_fts", rowid, owner_key, title, content, terms)
     VALUES ('delete', old.seq, old.owner_key, old.title, old.content, old.terms);
     INSERT INTO "knowledge_fts" (rowid, owner_key, title, content, terms)
     VALUES (new.seq, new.owner_key, new.title, new.content, new.terms);
   END`,
];

const POSTGRES_PASSAGES = `
  CREATE TABLE "knowledge_passages" (
    "id" varchar(36) PRIMARY KEY,
    "team_id" varchar(36),
    "agent_id" varchar(36) REFERENCES "agents" ("id") ON DELETE CASCADE,
    "knowledge_base_id" varchar(36) REFERENCES "knowledge_bases" ("id") ON DELETE CASCADE,
    "workflow_id" varchar(36) REFERENCES "workflows" ("id") ON DELETE CASCADE,
    "source" varchar(8) NOT NULL,
    "position" integer NOT NULL,
    "owner_key" varchar(40) NOT NULL,
    "title" text NOT NULL,
    "content" text NOT NULL,
    "terms" text NOT NULL,
    "search" tsvector NOT NULL
  )`;

const POSTGRES_INDEX = [
  'CREATE INDEX "ix_knowledge_passages_search" ON "knowledge_passages" USING GIN ("search")',
];

const COMMON_INDEXES = [
  'CREATE INDEX "ix_knowledge_passages_agent" ON "knowledge_passages" ("agent_id")',
  'CREATE INDEX "ix_knowledge_passages_kb" ON "knowledge_passages" ("knowledge_base_id")',
  'CREATE INDEX "ix_knowledge_passages_workflow" ON "knowledge_passages" ("workflow_id")',
  `CREATE TABLE "knowledge_faq_versions" (
     "workflow_id" varchar(36) PRIMARY KEY REFERENCES "workflows" ("id") ON DELETE CASCADE,
     "digest" varchar(64) NOT NULL
   )`,
];

/**
 * Knowledge that answers: items get a status (text items are ready, URL items wait for their
 * first fetch), and passages move to a table with the database's own full-text index, holding
 * the text items' passages and the workflows' FAQ entries.
 */
export class KnowledgeIndex1732608000000 implements MigrationInterface {
  name = 'KnowledgeIndex1732608000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    const time = postgres ? 'timestamptz' : 'datetime';
    for (const column of [
      `"status" varchar(16) NOT NULL DEFAULT 'ready'`,
      `"error" text`,
      `"fetched_at" ${time}`,
      `"lease_until" ${time}`,
      `"fetch_token" varchar(36)`,
      `"fetch_attempts" integer NOT NULL DEFAULT 0`,
    ]) {
      await queryRunner.query(`ALTER TABLE "knowledge_bases" ADD COLUMN ${column}`);
    }
    await queryRunner.query(
      `UPDATE "knowledge_bases" SET "status" = 'pending' WHERE "type" = 'url'`,
    );
    await queryRunner.query(
      'CREATE INDEX "ix_knowledge_bases_fetch" ON "knowledge_bases" ("type", "status", "lease_until")',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_knowledge_bases_fetched" ON "knowledge_bases" ("type", "fetched_at")',
    );

    await queryRunner.query('ALTER TABLE "knowledge_passages" RENAME TO "knowledge_passages_old"');
    for (const index of ['ix_knowledge_passages_agent', 'ix_knowledge_passages_kb']) {
      await queryRunner.query(`DROP INDEX "${index}"`);
    }
    await queryRunner.query(postgres ? POSTGRES_PASSAGES : SQLITE_PASSAGES);
    for (const statement of [...(postgres ? POSTGRES_INDEX : SQLITE_INDEX), ...COMMON_INDEXES]) {
      await queryRunner.query(statement);
    }
    // The text items' passages move over as they were cut; FAQ entries are indexed when first
    // searched (their workflow has no digest yet).
    const passages = (await queryRunner.query(
      `SELECT "p"."id", "kb"."team_id", "p"."agent_id", "p"."knowledge_base_id", "p"."position",
         "p"."content"
       FROM "knowledge_passages_old" "p"
       JOIN "knowledge_bases" "kb" ON "kb"."id" = "p"."knowledge_base_id"`,
    )) as Row[];
    for (const passage of passages) {
      const ownerKey = ownerToken(String(passage.agent_id));
      const values = [
        passage.id,
        passage.team_id,
        passage.agent_id,
        passage.knowledge_base_id,
        passage.position,
        ownerKey,
        passage.content,
        compounds(String(passage.content)),
      ];
      const columns = `"id", "team_id", "agent_id", "knowledge_base_id", "position", "owner_key",
        "content", "terms", "source", "title"`;
      await queryRunner.query(
        postgres
          ? `INSERT INTO "knowledge_passages" (${columns}, "search")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'kb', '',
               setweight(to_tsvector('simple', $10), 'D') ||
               setweight(to_tsvector('simple', $9), 'B') || setweight(to_tsvector('simple', $8), 'B'))`
          : `INSERT INTO "knowledge_passages" (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'kb', '')`,
        postgres ? [...values, fold(String(passage.content)), ownerKey] : values,
      );
    }
    await queryRunner.query('DROP TABLE "knowledge_passages_old"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    await queryRunner.query('DROP TABLE "knowledge_faq_versions"');
    if (!postgres) {
      for (const trigger of ['ai', 'ad', 'au']) {
        await queryRunner.query(`DROP TRIGGER "knowledge_passages_${trigger}"`);
      }
      await queryRunner.query('DROP TABLE "knowledge_fts"');
    }
    await queryRunner.query(`DELETE FROM "knowledge_passages" WHERE "source" = 'faq'`);
    await queryRunner.query('ALTER TABLE "knowledge_passages" RENAME TO "knowledge_passages_new"');
    await queryRunner.query(
      `CREATE TABLE "knowledge_passages" (
         "id" varchar(36) PRIMARY KEY,
         "agent_id" varchar(36) NOT NULL,
         "knowledge_base_id" varchar(36) NOT NULL
           REFERENCES "knowledge_bases" ("id") ON DELETE CASCADE,
         "position" integer NOT NULL,
         "content" text NOT NULL
       )`,
    );
    await queryRunner.query(
      `INSERT INTO "knowledge_passages" ("id", "agent_id", "knowledge_base_id", "position", "content")
       SELECT "id", "agent_id", "knowledge_base_id", "position", "content"
       FROM "knowledge_passages_new" WHERE "source" = 'kb'`,
    );
    await queryRunner.query('DROP TABLE "knowledge_passages_new"');
    await queryRunner.query(
      'CREATE INDEX "ix_knowledge_passages_agent" ON "knowledge_passages" ("agent_id")',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_knowledge_passages_kb" ON "knowledge_passages" ("knowledge_base_id")',
    );
    await queryRunner.query('DROP INDEX "ix_knowledge_bases_fetch"');
    await queryRunner.query('DROP INDEX "ix_knowledge_bases_fetched"');
    for (const column of [
      'status',
      'error',
      'fetched_at',
      'lease_until',
      'fetch_token',
      'fetch_attempts',
    ]) {
      await queryRunner.query(`ALTER TABLE "knowledge_bases" DROP COLUMN "${column}"`);
    }
  }
}
