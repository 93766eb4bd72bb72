import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The team queue reads conversations across agents, newest message first, often by status: its
 * two indexes start at the team instead of the agent.
 */
export class TeamQueue1733162400000 implements MigrationInterface {
  name = 'TeamQueue1733162400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "ix_conversations_team_last_message" ON "conversations" ("team_id", "last_message_at")',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_conversations_team_status" ON "conversations" ("team_id", "status", "last_message_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_conversations_team_status"');
    await queryRunner.query('DROP INDEX "ix_conversations_team_last_message"');
  }
}
