import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { varcharColumn } from './columns';

/**
 * Pending replies and action runs settle through their claim's token (the job base): a worker or
 * caller whose lease ran out cannot overwrite the outcome of the one that took the job over.
 */
export class ReplyJobLeases1733137200000 implements MigrationInterface {
  name = 'ReplyJobLeases1733137200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'pending_replies',
      new TableColumn(varcharColumn('lease_token', 36, true)),
    );
    await queryRunner.addColumn(
      'action_runs',
      new TableColumn(varcharColumn('lease_token', 36, true)),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('action_runs', 'lease_token');
    await queryRunner.dropColumn('pending_replies', 'lease_token');
  }
}
