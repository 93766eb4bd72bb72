import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
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

/** `column` references `table`.id, and is cleared when that row goes. */
function clearingForeignKey(table: string, column: string): TableForeignKey {
  return new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'SET NULL',
  });
}

export class PhoneNumbers1732867200000 implements MigrationInterface {
  name = 'PhoneNumbers1732867200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const timestamps = () => [
      timestampColumn(queryRunner, 'created_at'),
      timestampColumn(queryRunner, 'updated_at'),
    ];

    await queryRunner.createTable(
      new Table({
        name: 'phone_number_requests',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('business_name', 255),
          textColumn('intended_use'),
          varcharColumn('region', 8),
          integerColumn('agent_count'),
          integerColumn('outbound_minutes'),
          refColumn('submitted_by_agent_id', true),
          varcharColumn('status', 16),
          varcharColumn('e164', 16, true),
          textColumn('rejection_reason', true),
          ...timestamps(),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          clearingForeignKey('agents', 'submitted_by_agent_id'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_phone_number_requests_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_phone_number_requests_status_created',
            columnNames: ['status', 'created_at'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'phone_numbers',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('e164', 16),
          varcharColumn('label', 255, true),
          refColumn('agent_id', true),
          booleanColumn('inbound_enabled', true),
          refColumn('request_id'),
          ...timestamps(),
        ],
        uniques: [
          // A number exists once in the whole service, whichever team holds it.
          { name: 'uq_phone_numbers_e164', columnNames: ['e164'] },
          { name: 'uq_phone_numbers_request', columnNames: ['request_id'] },
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          // Deleting an agent unlinks its numbers; the team keeps them.
          clearingForeignKey('agents', 'agent_id'),
          cascadeForeignKey('phone_number_requests', 'request_id'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_phone_numbers_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
          new TableIndex({ name: 'ix_phone_numbers_agent', columnNames: ['agent_id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('phone_numbers');
    await queryRunner.dropTable('phone_number_requests');
  }
}
