import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import {
  cascadeForeignKey,
  idColumn,
  refColumn,
  textColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

/** Action runs (what an agent did during its replies), the action a message stands for, and a conversation's collected answers. */
export class ActionRuns1732694400000 implements MigrationInterface {
  name = 'ActionRuns1732694400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'action_runs',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('conversation_id'),
          refColumn('message_id'),
          refColumn('action_id'),
          varcharColumn('action_name', 128),
          textColumn('arguments'),
          varcharColumn('status', 32),
          textColumn('result', true),
          textColumn('error', true),
          refColumn('decided_by_api_key_id', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('agents', 'agent_id'),
          cascadeForeignKey('conversations', 'conversation_id'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_action_runs_agent_created',
            columnNames: ['agent_id', 'created_at'],
          }),
          new TableIndex({ name: 'ix_action_runs_message', columnNames: ['message_id'] }),
          new TableIndex({ name: 'ix_action_runs_status', columnNames: ['status'] }),
        ],
      }),
    );
    await queryRunner.addColumn('messages', new TableColumn(textColumn('action', true)));
    await queryRunner.addColumn('conversations', new TableColumn(textColumn('context', true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('conversations', 'context');
    await queryRunner.dropColumn('messages', 'action');
    await queryRunner.dropTable('action_runs');
  }
}
