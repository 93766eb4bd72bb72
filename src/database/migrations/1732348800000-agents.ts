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

export class Agents1732348800000 implements MigrationInterface {
  name = 'Agents1732348800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const timestamps = () => [
      timestampColumn(queryRunner, 'created_at'),
      timestampColumn(queryRunner, 'updated_at'),
    ];

    await queryRunner.createTable(
      new Table({
        name: 'agents',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('workflow_id'),
          varcharColumn('name', 255),
          textColumn('description'),
          varcharColumn('language', 64, true),
          varcharColumn('persona', 16, true),
          varcharColumn('timezone', 64, true),
          varcharColumn('logo', 2048, true),
          varcharColumn('business_name', 255, true),
          textColumn('business_address', true),
          varcharColumn('business_email', 255, true),
          textColumn('business_description', true),
          varcharColumn('test_channel_code', 16),
          varcharColumn('status', 16),
          textColumn('status_reason', true),
          varcharColumn('escalation_email', 255, true),
          ...timestamps(),
        ],
        uniques: [{ name: 'uq_agents_test_channel_code', columnNames: ['test_channel_code'] }],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          // A workflow in use cannot be deleted: the service turns the violation into 409.
          new TableForeignKey({
            columnNames: ['workflow_id'],
            referencedTableName: 'workflows',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'ix_agents_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
          new TableIndex({ name: 'ix_agents_workflow', columnNames: ['workflow_id'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'agent_channels',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          varcharColumn('type', 32),
          varcharColumn('name', 255),
          varcharColumn('status', 16),
          booleanColumn('is_connected', false),
          ...timestamps(),
        ],
        uniques: [{ name: 'uq_agent_channels_agent_type', columnNames: ['agent_id', 'type'] }],
        foreignKeys: [cascadeForeignKey('agents', 'agent_id')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'knowledge_bases',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          varcharColumn('type', 16),
          varcharColumn('name', 255),
          textColumn('description', true),
          varcharColumn('url', 2048, true),
          textColumn('content', true),
          ...timestamps(),
        ],
        foreignKeys: [cascadeForeignKey('agents', 'agent_id')],
        indices: [
          new TableIndex({
            name: 'ix_knowledge_bases_agent',
            columnNames: ['agent_id', 'created_at'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'knowledge_passages',
        columns: [
          idColumn(),
          refColumn('agent_id'),
          refColumn('knowledge_base_id'),
          integerColumn('position'),
          textColumn('content'),
        ],
        foreignKeys: [cascadeForeignKey('knowledge_bases', 'knowledge_base_id')],
        indices: [
          new TableIndex({ name: 'ix_knowledge_passages_agent', columnNames: ['agent_id'] }),
          new TableIndex({ name: 'ix_knowledge_passages_kb', columnNames: ['knowledge_base_id'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'integrations',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          varcharColumn('family', 32),
          varcharColumn('type', 64),
          varcharColumn('name', 255),
          textColumn('description', true),
          varcharColumn('status', 16),
          booleanColumn('is_connected', false),
          textColumn('config'),
          textColumn('secrets', true),
          ...timestamps(),
        ],
        foreignKeys: [cascadeForeignKey('agents', 'agent_id')],
        indices: [
          new TableIndex({
            name: 'ix_integrations_agent_family',
            columnNames: ['agent_id', 'family', 'created_at'],
          }),
          // One built-in connector of each type per agent.
          new TableIndex({
            name: 'uq_integrations_agent_built_in',
            columnNames: ['agent_id', 'type'],
            isUnique: true,
            where: "family = 'bimpeai'",
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'actions',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('integration_id'),
          varcharColumn('action_name', 128),
          varcharColumn('name', 255),
          textColumn('description', true),
          varcharColumn('category', 255, true),
          booleanColumn('is_enabled', true),
          booleanColumn('is_available', true),
          booleanColumn('require_human_approval', false),
          textColumn('config'),
          textColumn('secrets', true),
          ...timestamps(),
        ],
        uniques: [
          { name: 'uq_actions_integration_name', columnNames: ['integration_id', 'action_name'] },
        ],
        foreignKeys: [
          cascadeForeignKey('integrations', 'integration_id'),
          cascadeForeignKey('agents', 'agent_id'),
        ],
        indices: [
          new TableIndex({ name: 'ix_actions_agent', columnNames: ['agent_id', 'created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'actions',
      'integrations',
      'knowledge_passages',
      'knowledge_bases',
      'agent_channels',
      'agents',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
