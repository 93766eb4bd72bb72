import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The team inbox: a conversation's status (old rows `open`), snooze, assignee, labels (old rows
 * none), priority (old rows `normal`), its latest hand-off, and the lease of the job that ends a
 * snooze; the agent's two take-over settings (both on for old agents).
 */
export class InboxStatus1733154000000 implements MigrationInterface {
  name = 'InboxStatus1733154000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const time = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    for (const column of [
      `"status" varchar(16) NOT NULL DEFAULT 'open'`,
      `"snoozed_until" ${time}`,
      `"assignee_id" varchar(255)`,
      `"assignee_name" varchar(255)`,
      `"labels" text NOT NULL DEFAULT '[]'`,
      `"priority" varchar(16) NOT NULL DEFAULT 'normal'`,
      `"handoff_reason" varchar(500)`,
      `"handoff_source" varchar(16)`,
      `"handoff_at" ${time}`,
      `"snooze_lease_until" ${time}`,
      `"snooze_lease_token" varchar(36)`,
    ]) {
      await queryRunner.query(`ALTER TABLE "conversations" ADD COLUMN ${column}`);
    }
    await queryRunner.query(
      'CREATE INDEX "ix_conversations_snoozed" ON "conversations" ("status", "snoozed_until")',
    );
    for (const column of ['handoff_pauses_ai', 'operator_reply_pauses_ai']) {
      await queryRunner.query(
        `ALTER TABLE "agents" ADD COLUMN "${column}" boolean NOT NULL DEFAULT true`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['operator_reply_pauses_ai', 'handoff_pauses_ai']) {
      await queryRunner.dropColumn('agents', column);
    }
    await queryRunner.query('DROP INDEX "ix_conversations_snoozed"');
    for (const column of [
      'snooze_lease_token',
      'snooze_lease_until',
      'handoff_at',
      'handoff_source',
      'handoff_reason',
      'priority',
      'labels',
      'assignee_name',
      'assignee_id',
      'snoozed_until',
      'status',
    ]) {
      await queryRunner.dropColumn('conversations', column);
    }
  }
}
