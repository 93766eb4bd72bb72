import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { cascadeForeignKey, idColumn, refColumn, timestampColumn, varcharColumn } from './columns';

/** What an agent's channels said until they were connected, as this release wrote it. */
const NOT_CONNECTED = 'Not connected';
const CALLS_UNAVAILABLE =
  'Calls are not available: phone numbers can be requested, calls are not answered yet';

/**
 * Channels that connect: the settings and sealed secrets of the last connect, a web chat's
 * publishable key (by hash), when it was connected and why it is not active. Web chats were shown
 * `active` without anything serving them: they start `inactive` like the others, until connected.
 * Telephony stays `inactive`, saying why. Web chat visitors, each with its token's hash.
 */
export class ChannelConnections1733176800000 implements MigrationInterface {
  name = 'ChannelConnections1733176800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const time = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    for (const column of [
      '"status_reason" varchar(500)',
      `"config" text NOT NULL DEFAULT '{}'`,
      `"allowed_origins" text NOT NULL DEFAULT '[]'`,
      '"secrets" text',
      '"publishable_key_hash" varchar(64)',
      `"connected_at" ${time}`,
    ]) {
      await queryRunner.query(`ALTER TABLE "agent_channels" ADD COLUMN ${column}`);
    }
    await queryRunner.query(
      'CREATE UNIQUE INDEX "ix_agent_channels_publishable_key" ON "agent_channels" ("publishable_key_hash")',
    );
    // Both texts are constants without quotes.
    await queryRunner.query(
      `UPDATE "agent_channels" SET "status" = 'inactive', "is_connected" = false,
         "status_reason" = CASE WHEN "type" = 'telephony' THEN '${CALLS_UNAVAILABLE}'
           ELSE '${NOT_CONNECTED}' END`,
    );
    await queryRunner.createTable(
      new Table({
        name: 'widget_visitors',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('channel_id'),
          varcharColumn('token_hash', 64),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
          timestampColumn(queryRunner, 'last_seen_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          cascadeForeignKey('agents', 'agent_id'),
          cascadeForeignKey('agent_channels', 'channel_id'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_widget_visitors_token',
            columnNames: ['token_hash'],
            isUnique: true,
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('widget_visitors');
    await queryRunner.query('DROP INDEX "ix_agent_channels_publishable_key"');
    for (const column of [
      'connected_at',
      'publishable_key_hash',
      'secrets',
      'allowed_origins',
      'config',
      'status_reason',
    ]) {
      await queryRunner.dropColumn('agent_channels', column);
    }
    await queryRunner.query(
      `UPDATE "agent_channels" SET "status" = 'active', "is_connected" = true WHERE "type" = 'webchat'`,
    );
  }
}
