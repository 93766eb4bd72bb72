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

export class Platform1732262400000 implements MigrationInterface {
  name = 'Platform1732262400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'teams',
        columns: [
          idColumn(),
          varcharColumn('name', 255),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [{ name: 'uq_teams_name', columnNames: ['name'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('key_hash', 64),
          varcharColumn('key_prefix', 16),
          textColumn('scopes'),
          timestampColumn(queryRunner, 'expires_at', true),
          timestampColumn(queryRunner, 'revoked_at', true),
          timestampColumn(queryRunner, 'last_used_at', true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [{ name: 'uq_api_keys_key_hash', columnNames: ['key_hash'] }],
        foreignKeys: [cascadeForeignKey('teams', 'team_id')],
        indices: [new TableIndex({ name: 'ix_api_keys_team', columnNames: ['team_id'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'workflows',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('name', 255),
          textColumn('description', true),
          varcharColumn('category', 255, true),
          varcharColumn('visibility', 16),
          textColumn('system_prompt', true),
          textColumn('rules'),
          textColumn('flows'),
          textColumn('tags'),
          textColumn('integrations'),
          textColumn('channels'),
          textColumn('actions'),
          textColumn('guide', true),
          textColumn('faq'),
          textColumn('setup_steps'),
          varcharColumn('setup_time', 255, true),
          varcharColumn('video_url', 2048, true),
          textColumn('prompt_config', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        foreignKeys: [cascadeForeignKey('teams', 'team_id')],
        indices: [
          new TableIndex({
            name: 'ix_workflows_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_workflows_visibility_created',
            columnNames: ['visibility', 'created_at'],
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('idempotency_key', 255),
          varcharColumn('fingerprint', 64),
          varcharColumn('state', 16),
          integerColumn('response_status', true),
          textColumn('response_body', true),
          timestampColumn(queryRunner, 'locked_at'),
          timestampColumn(queryRunner, 'expires_at'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [
          { name: 'uq_idempotency_keys_team_key', columnNames: ['team_id', 'idempotency_key'] },
        ],
        foreignKeys: [cascadeForeignKey('teams', 'team_id')],
        indices: [
          new TableIndex({ name: 'ix_idempotency_keys_expires', columnNames: ['expires_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
    await queryRunner.dropTable('workflows');
    await queryRunner.dropTable('api_keys');
    await queryRunner.dropTable('teams');
  }
}
