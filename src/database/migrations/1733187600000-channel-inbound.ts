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
 * Channels' inbound notifications: kept from their acknowledgement until processed, and the
 * provider message ids each channel has taken in (at most once each).
 */
export class ChannelInbound1733187600000 implements MigrationInterface {
  name = 'ChannelInbound1733187600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'channel_inbound',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('channel_id'),
          textColumn('body'),
          { ...integerColumn('attempts'), default: 0 },
          timestampColumn(queryRunner, 'next_attempt_at'),
          timestampColumn(queryRunner, 'lease_until', true),
          varcharColumn('lease_token', 36, true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          cascadeForeignKey('agent_channels', 'channel_id'),
        ],
        indices: [new TableIndex({ name: 'ix_channel_inbound_due', columnNames: ['next_attempt_at'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'channel_inbound_seen',
        columns: [
          { ...refColumn('channel_id'), isPrimary: true },
          { ...varcharColumn('provider_message_id', 255), isPrimary: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [cascadeForeignKey('agent_channels', 'channel_id')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('channel_inbound_seen');
    await queryRunner.dropTable('channel_inbound');
  }
}
