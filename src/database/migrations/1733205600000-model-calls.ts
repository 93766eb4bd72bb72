import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import {
  booleanColumn,
  cascadeForeignKey,
  idColumn,
  integerColumn,
  refColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

/**
 * Usage: one row per model call. The team's index reads GET /usage's periods, the
 * conversation's sums a conversation's calls for its detail.
 */
export class ModelCalls1733205600000 implements MigrationInterface {
  name = 'ModelCalls1733205600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'model_calls',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('conversation_id'),
          varcharColumn('model', 255),
          integerColumn('prompt_tokens'),
          integerColumn('completion_tokens'),
          integerColumn('latency_ms'),
          booleanColumn('ok', true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          cascadeForeignKey('conversations', 'conversation_id'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_model_calls_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_model_calls_conversation',
            columnNames: ['conversation_id'],
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('model_calls');
  }
}
