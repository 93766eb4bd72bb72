import { MigrationInterface, QueryRunner, Table } from 'typeorm';
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
 * A team's own model provider and monthly token budget (one row per team, none: the
 * environment's LLM_* and no budget), and the months whose budget notice was sent: the key of
 * `budget_notices` is what makes `usage.budget_exceeded` go out once, whichever instance sees
 * the budget crossed first.
 */
export class TeamModelSettings1733209200000 implements MigrationInterface {
  name = 'TeamModelSettings1733209200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'team_model_settings',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('base_url', 2048, true),
          textColumn('api_key', true),
          varcharColumn('model', 255, true),
          textColumn('allowed_models', true),
          integerColumn('monthly_token_budget', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: [{ name: 'uq_team_model_settings_team', columnNames: ['team_id'] }],
        foreignKeys: [cascadeForeignKey('teams', 'team_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'budget_notices',
        columns: [
          { ...refColumn('team_id'), isPrimary: true },
          { ...varcharColumn('month', 7), isPrimary: true },
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [cascadeForeignKey('teams', 'team_id')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('budget_notices');
    await queryRunner.dropTable('team_model_settings');
  }
}
