import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import {
  cascadeForeignKey,
  idColumn,
  integerColumn,
  refColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

/**
 * Messages sent through channel providers: each message's `delivery` (none for the messages so
 * far: nothing was sent anywhere), and the sends the worker leases.
 */
export class ChannelSends1733184000000 implements MigrationInterface {
  name = 'ChannelSends1733184000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const time = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    for (const column of [
      '"delivery_status" varchar(16)',
      '"delivery_error" varchar(500)',
      `"delivery_updated_at" ${time}`,
    ]) {
      await queryRunner.query(`ALTER TABLE "messages" ADD COLUMN ${column}`);
    }
    await queryRunner.createTable(
      new Table({
        name: 'channel_sends',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('conversation_id'),
          refColumn('message_id'),
          refColumn('channel_id'),
          varcharColumn('channel_type', 32),
          varcharColumn('recipient', 255),
          varcharColumn('status', 16),
          { ...integerColumn('attempts'), default: 0 },
          timestampColumn(queryRunner, 'next_attempt_at'),
          timestampColumn(queryRunner, 'lease_until', true),
          varcharColumn('lease_token', 36, true),
          varcharColumn('provider_message_id', 255, true),
          varcharColumn('last_error', 500, true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          cascadeForeignKey('conversations', 'conversation_id'),
          cascadeForeignKey('messages', 'message_id'),
        ],
        indices: [
          new TableIndex({ name: 'ix_channel_sends_due', columnNames: ['status', 'next_attempt_at'] }),
          new TableIndex({
            name: 'ix_channel_sends_message',
            columnNames: ['message_id'],
            isUnique: true,
          }),
          new TableIndex({
            name: 'ix_channel_sends_provider_message',
            columnNames: ['channel_id', 'provider_message_id'],
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('channel_sends');
    for (const column of ['delivery_updated_at', 'delivery_error', 'delivery_status']) {
      await queryRunner.dropColumn('messages', column);
    }
  }
}
