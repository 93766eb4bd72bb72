import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const SEEN_TABLES = [
  ['channel_inbound_seen', 'ix_channel_inbound_seen_created'],
  ['test_number_inbound_seen', 'ix_test_number_inbound_seen_created'],
] as const;

/**
 * The provider message ids taken in are kept only as long as a provider may send a notification
 * again (retention): indexed by age, so that the hourly purge finds the old ones without reading
 * every id.
 */
export class InboundSeenAge1733212800000 implements MigrationInterface {
  name = 'InboundSeenAge1733212800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of SEEN_TABLES) {
      await queryRunner.createIndex(
        table,
        new TableIndex({ name: index, columnNames: ['created_at'] }),
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of SEEN_TABLES) {
      await queryRunner.dropIndex(table, index);
    }
  }
}
