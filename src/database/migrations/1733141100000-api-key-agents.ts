import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { textColumn } from './columns';

/** A key may be limited to some agents of its team (JSON list of ids); null keeps every agent. */
export class ApiKeyAgents1733141100000 implements MigrationInterface {
  name = 'ApiKeyAgents1733141100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('api_keys', new TableColumn(textColumn('agent_ids', true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('api_keys', 'agent_ids');
  }
}
