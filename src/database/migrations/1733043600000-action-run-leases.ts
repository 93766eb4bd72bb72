import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { timestampColumn } from './columns';

/**
 * A lease on each running action run, so that a run whose process died (an approval above all,
 * which owes the customer a follow-up) is settled by any instance once the lease runs out.
 */
export class ActionRunLeases1733043600000 implements MigrationInterface {
  name = 'ActionRunLeases1733043600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'action_runs',
      new TableColumn(timestampColumn(queryRunner, 'lease_until', true)),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('action_runs', 'lease_until');
  }
}
