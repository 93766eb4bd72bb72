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

export class Conversations1732435200000 implements MigrationInterface {
  name = 'Conversations1732435200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'conversations',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          varcharColumn('channel_type', 32),
          varcharColumn('channel_id', 255, true),
          varcharColumn('channel_user_id', 255),
          varcharColumn('channel_user_username', 255, true),
          booleanColumn('is_test_channel', false),
          booleanColumn('is_ai_chat_paused', false),
          booleanColumn('needs_attention', false),
          timestampColumn(queryRunner, 'last_message_at', true),
          timestampColumn(queryRunner, 'last_seen', true),
          varcharColumn('last_message_preview', 255, true),
          varcharColumn('full_name', 255, true),
          varcharColumn('email', 255, true),
          varcharColumn('phone_number', 64, true),
          varcharColumn('profile_picture', 2048, true),
          integerColumn('last_seq'),
          textColumn('flow_state', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: [
          // One conversation per person per channel: concurrent first messages meet here.
          {
            name: 'uq_conversations_channel_user',
            columnNames: ['agent_id', 'channel_type', 'channel_user_id', 'is_test_channel'],
          },
        ],
        foreignKeys: [cascadeForeignKey('agents', 'agent_id')],
        indices: [
          new TableIndex({
            name: 'ix_conversations_agent_last_message',
            columnNames: ['agent_id', 'last_message_at'],
          }),
          new TableIndex({
            name: 'ix_conversations_agent_created',
            columnNames: ['agent_id', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_conversations_agent_updated',
            columnNames: ['agent_id', 'updated_at'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'messages',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('conversation_id'),
          integerColumn('seq'),
          varcharColumn('role', 16),
          textColumn('message'),
          varcharColumn('message_type', 16),
          textColumn('attachments'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [
          { name: 'uq_messages_conversation_seq', columnNames: ['conversation_id', 'seq'] },
        ],
        foreignKeys: [cascadeForeignKey('conversations', 'conversation_id')],
        indices: [
          new TableIndex({
            name: 'ix_messages_conversation_created',
            columnNames: ['conversation_id', 'created_at'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'pending_replies',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('conversation_id'),
          refColumn('message_id'),
          integerColumn('attempts'),
          timestampColumn(queryRunner, 'lease_until', true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [{ name: 'uq_pending_replies_message', columnNames: ['message_id'] }],
        foreignKeys: [
          cascadeForeignKey('messages', 'message_id'),
          cascadeForeignKey('conversations', 'conversation_id'),
        ],
        indices: [
          new TableIndex({ name: 'ix_pending_replies_created', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('pending_replies');
    await queryRunner.dropTable('messages');
    await queryRunner.dropTable('conversations');
  }
}
