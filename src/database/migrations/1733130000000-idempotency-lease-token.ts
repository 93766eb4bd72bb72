import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { timestampColumn, varcharColumn } from './columns';

/**
 * Idempotency keys are held as every job is (the job base): a lease deadline and a token that a
 * takeover replaces, instead of a renewal time and a record id that a takeover replaced. A claim
 * held across the upgrade keeps its lease from when it was last renewed.
 */
export class IdempotencyLeaseToken1733130000000 implements MigrationInterface {
  name = 'IdempotencyLeaseToken1733130000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('idempotency_keys', [
      new TableColumn(timestampColumn(queryRunner, 'lease_until', true)),
      new TableColumn(varcharColumn('lease_token', 36, true)),
    ]);
    await queryRunner.query(
      "UPDATE idempotency_keys SET lease_until = locked_at WHERE state = 'in_progress'",
    );
    await queryRunner.dropColumn('idempotency_keys', 'locked_at');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'idempotency_keys',
      new TableColumn(timestampColumn(queryRunner, 'locked_at', true)),
    );
    await queryRunner.query(
      'UPDATE idempotency_keys SET locked_at = COALESCE(lease_until, created_at)',
    );
    await queryRunner.changeColumn(
      'idempotency_keys',
      'locked_at',
      new TableColumn(timestampColumn(queryRunner, 'locked_at')),
    );
    await queryRunner.dropColumns('idempotency_keys', ['lease_until', 'lease_token']);
  }
}
