import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { timestampColumn, varcharColumn } from './columns';

/**
 * Every background job settles through its claim's token (the job base), the outbox writes one
 * row per event and fans it out to endpoints afterwards, hand-off mails are counted per recipient,
 * and periodic tasks (retention) hold a lease so that one instance runs each at a time.
 */
export class JobLeases1733126400000 implements MigrationInterface {
  name = 'JobLeases1733126400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('webhook_deliveries', [
      new TableColumn(varcharColumn('lease_token', 36, true)),
      new TableColumn(varcharColumn('recipient', 320, true)),
    ]);
    await queryRunner.createIndices('webhook_deliveries', [
      new TableIndex({
        name: 'ix_webhook_deliveries_recipient',
        columnNames: ['recipient', 'created_at'],
      }),
      new TableIndex({
        name: 'ix_webhook_deliveries_team_kind',
        columnNames: ['team_id', 'kind', 'created_at'],
      }),
      new TableIndex({
        name: 'ix_webhook_deliveries_finished',
        columnNames: ['status', 'updated_at'],
      }),
    ]);

    await queryRunner.addColumns('webhook_events', [
      new TableColumn(timestampColumn(queryRunner, 'fanned_out_at', true)),
      new TableColumn(timestampColumn(queryRunner, 'lease_until', true)),
      new TableColumn(varcharColumn('lease_token', 36, true)),
    ]);
    // Events written before were fanned out in their own transaction.
    await queryRunner.query('UPDATE webhook_events SET fanned_out_at = created_at');
    await queryRunner.createIndex(
      'webhook_events',
      new TableIndex({
        name: 'ix_webhook_events_fanout',
        columnNames: ['fanned_out_at', 'created_at'],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'periodic_tasks',
        columns: [
          { ...varcharColumn('id', 64), isPrimary: true },
          timestampColumn(queryRunner, 'due_at'),
          timestampColumn(queryRunner, 'lease_until', true),
          varcharColumn('lease_token', 36, true),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('periodic_tasks');
    await queryRunner.dropIndex('webhook_events', 'ix_webhook_events_fanout');
    await queryRunner.dropColumns('webhook_events', [
      'fanned_out_at',
      'lease_until',
      'lease_token',
    ]);
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_finished');
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_team_kind');
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_recipient');
    await queryRunner.dropColumns('webhook_deliveries', ['lease_token', 'recipient']);
  }
}
