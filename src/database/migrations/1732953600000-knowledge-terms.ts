import { MigrationInterface, QueryRunner } from 'typeorm';

type Row = Record<string, string | null>;

const isPostgres = (queryRunner: QueryRunner) => queryRunner.connection.options.type === 'postgres';

/** As the passages repository cuts a passage into vocabulary words (search-terms, typo-correction). */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
const words = (text: string) => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
const compounds = (text: string) =>
  (fold(text).match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu) ?? [])
    .map((compound) => compound.replace(/-/g, ''))
    .join(' ');
const vocabularyWord = (word: string) =>
  word.length >= 4 && word.length <= 40 && !/\p{N}/u.test(word);

const BATCH = 500;

/** Each owner's passage count, kept by the database itself on every insert and delete. */
const SIZES_TABLE = `CREATE TABLE "knowledge_owner_sizes" (
  "owner_key" varchar(40) PRIMARY KEY,
  "passages" integer NOT NULL
)`;
const SQLITE_SIZES = [
  `CREATE TRIGGER "knowledge_passages_size_ai" AFTER INSERT ON "knowledge_passages" BEGIN
     INSERT INTO "knowledge_owner_sizes" ("owner_key", "passages") VALUES (new.owner_key, 1)
     ON CONFLICT ("owner_key") DO UPDATE SET "passages" = "passages" + 1;
   END`,
  `CREATE TRIGGER "knowledge_passages_size_ad" AFTER DELETE ON "knowledge_passages" BEGIN
     UPDATE "knowledge_owner_sizes" SET "passages" = "passages" - 1
     WHERE "owner_key" = old.owner_key;
   END`,
];
const POSTGRES_SIZES = [
  `CREATE FUNCTION "knowledge_owner_size"() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO "knowledge_owner_sizes" ("owner_key", "passages") VALUES (NEW."owner_key", 1)
       ON CONFLICT ("owner_key") DO UPDATE SET "passages" = "knowledge_owner_sizes"."passages" + 1;
     ELSE
       UPDATE "knowledge_owner_sizes" SET "passages" = "passages" - 1
       WHERE "owner_key" = OLD."owner_key";
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER "knowledge_passages_size" AFTER INSERT OR DELETE ON "knowledge_passages"
   FOR EACH ROW EXECUTE FUNCTION "knowledge_owner_size"()`,
];

/**
 * Each knowledge owner's vocabulary (the words of its passages), which a question's typos are
 * corrected against, and its passage count (a search weighs words by it without counting the
 * passages each time); both filled from the passages already indexed.
 */
export class KnowledgeTerms1732953600000 implements MigrationInterface {
  name = 'KnowledgeTerms1732953600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    await queryRunner.query(
      `CREATE TABLE "knowledge_terms" (
         "owner_key" varchar(40) NOT NULL,
         "term" varchar(40) NOT NULL,
         "agent_id" varchar(36) REFERENCES "agents" ("id") ON DELETE CASCADE,
         "workflow_id" varchar(36) REFERENCES "workflows" ("id") ON DELETE CASCADE,
         PRIMARY KEY ("owner_key", "term")
       )`,
    );
    await queryRunner.query(
      'CREATE INDEX "ix_knowledge_terms_agent" ON "knowledge_terms" ("agent_id")',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_knowledge_terms_workflow" ON "knowledge_terms" ("workflow_id")',
    );
    await queryRunner.query(SIZES_TABLE);
    for (const statement of postgres ? POSTGRES_SIZES : SQLITE_SIZES) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(
      `INSERT INTO "knowledge_owner_sizes" ("owner_key", "passages")
       SELECT "owner_key", count(*) FROM "knowledge_passages" GROUP BY "owner_key"`,
    );
    const passages = (await queryRunner.query(
      `SELECT "owner_key", "agent_id", "workflow_id", "title", "content" FROM "knowledge_passages"`,
    )) as Row[];
    const owners = new Map<
      string,
      { agentId: string | null; workflowId: string | null; terms: Set<string> }
    >();
    for (const passage of passages) {
      const ownerKey = String(passage.owner_key);
      const owner = owners.get(ownerKey) ?? {
        agentId: passage.agent_id,
        workflowId: passage.agent_id ? null : passage.workflow_id,
        terms: new Set<string>(),
      };
      owners.set(ownerKey, owner);
      const text = `${passage.title ?? ''}\n${passage.content ?? ''}`;
      for (const word of [...words(text), ...words(compounds(text))]) {
        if (vocabularyWord(word)) {
          owner.terms.add(word);
        }
      }
    }
    for (const [ownerKey, owner] of owners) {
      const terms = [...owner.terms];
      for (let start = 0; start < terms.length; start += BATCH) {
        const batch = terms.slice(start, start + BATCH);
        await queryRunner.query(
          postgres
            ? `INSERT INTO "knowledge_terms" ("owner_key", "agent_id", "workflow_id", "term")
               SELECT $1, $2, $3, unnest($4::text[]) ON CONFLICT DO NOTHING`
            : `INSERT INTO "knowledge_terms" ("owner_key", "agent_id", "workflow_id", "term")
               SELECT ?, ?, ?, "value" FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
          [ownerKey, owner.agentId, owner.workflowId, postgres ? batch : JSON.stringify(batch)],
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query('DROP TRIGGER "knowledge_passages_size" ON "knowledge_passages"');
      await queryRunner.query('DROP FUNCTION "knowledge_owner_size"()');
    } else {
      await queryRunner.query('DROP TRIGGER "knowledge_passages_size_ai"');
      await queryRunner.query('DROP TRIGGER "knowledge_passages_size_ad"');
    }
    await queryRunner.query('DROP TABLE "knowledge_owner_sizes"');
    await queryRunner.query('DROP TABLE "knowledge_terms"');
  }
}
