import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import {
  cascadeForeignKey,
  idColumn,
  integerColumn,
  refColumn,
  textColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

/**
 * The shared WhatsApp test number: its inbound notifications (kept until processed), the provider
 * message ids it has taken in, and which agent each of its senders talks to.
 */
export class TestNumber1733191200000 implements MigrationInterface {
  name = 'TestNumber1733191200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'test_number_inbound',
        columns: [
          idColumn(),
          textColumn('body'),
          { ...integerColumn('attempts'), default: 0 },
          timestampColumn(queryRunner, 'next_attempt_at'),
          timestampColumn(queryRunner, 'lease_until', true),
          varcharColumn('lease_token', 36, true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [
          new TableIndex({ name: 'ix_test_number_inbound_due', columnNames: ['next_attempt_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'test_number_inbound_seen',
        columns: [
          { ...varcharColumn('provider_message_id', 255), isPrimary: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'test_channel_bindings',
        columns: [
          { ...varcharColumn('channel_user_id', 255), isPrimary: true },
          refColumn('team_id'),
          refColumn('agent_id'),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          cascadeForeignKey('agents', 'agent_id'),
        ],
        indices: [
          new TableIndex({ name: 'ix_test_channel_bindings_agent', columnNames: ['agent_id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('test_channel_bindings');
    await queryRunner.dropTable('test_number_inbound_seen');
    await queryRunner.dropTable('test_number_inbound');
  }
}
