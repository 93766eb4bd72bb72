import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import {
  booleanColumn,
  cascadeForeignKey,
  idColumn,
  integerColumn,
  refColumn,
  textColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

export class Webhooks1732780800000 implements MigrationInterface {
  name = 'Webhooks1732780800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('url', 2048),
          textColumn('events'),
          varcharColumn('description', 2000, true),
          booleanColumn('is_enabled', true),
          varcharColumn('disabled_reason', 255, true),
          textColumn('secret_sealed'),
          timestampColumn(queryRunner, 'failing_since', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_webhook_endpoints_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhook_events',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('type', 64),
          textColumn('payload'),
          timestampColumn(queryRunner, 'created_at'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('kind', 16),
          refColumn('event_id'),
          varcharColumn('event_type', 64),
          refColumn('endpoint_id', true),
          refColumn('conversation_id', true),
          varcharColumn('status', 16),
          integerColumn('attempts'),
          integerColumn('last_status_code', true),
          varcharColumn('last_error', 500, true),
          timestampColumn(queryRunner, 'next_attempt_at', true),
          timestampColumn(queryRunner, 'retry_until'),
          timestampColumn(queryRunner, 'lease_until', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('webhook_events', 'event_id'),
          cascadeForeignKey('webhook_endpoints', 'endpoint_id'),
        ],
        indices: [
          // The worker's sweep: pending deliveries by due time.
          new TableIndex({
            name: 'ix_webhook_deliveries_due',
            columnNames: ['status', 'next_attempt_at'],
          }),
          new TableIndex({
            name: 'ix_webhook_deliveries_endpoint_created',
            columnNames: ['endpoint_id', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_webhook_deliveries_conversation',
            columnNames: ['conversation_id', 'created_at'],
          }),
          new TableIndex({ name: 'ix_webhook_deliveries_event', columnNames: ['event_id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhook_events');
    await queryRunner.dropTable('webhook_endpoints');
  }
}
