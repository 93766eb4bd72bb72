import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The team queue filtered by assignee (an operator's queue, or `none`) or by needs_attention: both
 * used to walk every row of the team's status (or the whole team) and test the rest on each, the
 * page's total included. Each index starts at the team and the filter (the unassigned, NULL, kept
 * together) and ends with the status and the last message, so that a status narrows further and
 * a page comes out in the list's default order.
 */
export class InboxListIndexes1733169600000 implements MigrationInterface {
  name = 'InboxListIndexes1733169600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "ix_conversations_team_assignee" ON "conversations" ("team_id", "assignee_id", "status", "last_message_at")',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_conversations_team_attention" ON "conversations" ("team_id", "needs_attention", "status", "last_message_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_conversations_team_attention"');
    await queryRunner.query('DROP INDEX "ix_conversations_team_assignee"');
  }
}
