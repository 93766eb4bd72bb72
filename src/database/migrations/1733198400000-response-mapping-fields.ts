import { MigrationInterface, QueryRunner } from 'typeorm';
import { update } from './1732521600000-exact-shapes';

type Json = Record<string, unknown>;

const NEW_KEYS = ['path', 'fields', 'success_message', 'error_message'];

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A tool's `response_mapping` takes the shape clients send, `{ path?, fields?, success_message?,
 * error_message? }`: a mapping of the earlier name → path form moves under `fields`, where its
 * names keep their values. `down` gives the earlier form back: the fields alone (the earlier
 * release has no place for a picking path or the customer texts, so those are dropped).
 */
export class ResponseMappingFields1733198400000 implements MigrationInterface {
  name = 'ResponseMappingFields1733198400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.rewrite(queryRunner, (mapping) =>
      Object.keys(mapping).length > 0 ? { fields: mapping } : null,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.rewrite(queryRunner, (mapping) =>
      Object.keys(mapping).some((key) => NEW_KEYS.includes(key))
        ? isObject(mapping.fields)
          ? mapping.fields
          : {}
        : null,
    );
  }

  /** Each custom API tool's mapping through `change` (null: left as it is). */
  private async rewrite(queryRunner: QueryRunner, change: (mapping: Json) => Json | null) {
    const rows = (await queryRunner.query(
      `SELECT "id", "config" FROM "actions" WHERE "integration_id" IN
         (SELECT "id" FROM "integrations" WHERE "family" = 'custom_api')`,
    )) as Json[];
    for (const row of rows) {
      const config = JSON.parse(row.config as string) as Json;
      const mapping = config.response_mapping;
      const changed = isObject(mapping) ? change(mapping) : null;
      if (changed) {
        await update(queryRunner, 'actions', row.id, {
          config: JSON.stringify({ ...config, response_mapping: changed }),
        });
      }
    }
  }
}
