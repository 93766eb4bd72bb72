import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { textColumn } from './columns';

/**
 * What the customer is told of a run (its action's filled success or error text), kept with the
 * run: a run decided by a person is followed up later, by whichever instance takes the reply.
 */
export class ActionRunCustomerText1733202000000 implements MigrationInterface {
  name = 'ActionRunCustomerText1733202000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('action_runs', new TableColumn(textColumn('customer_text', true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('action_runs', 'customer_text');
  }
}
