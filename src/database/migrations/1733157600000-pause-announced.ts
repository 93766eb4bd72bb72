import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether `conversation.needs_attention` has been announced during the current stretch of the AI
 * being paused (a customer writing while it is paused is announced once per stretch).
 */
export class PauseAnnounced1733157600000 implements MigrationInterface {
  name = 'PauseAnnounced1733157600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "conversations" ADD COLUMN "pause_announced" boolean NOT NULL DEFAULT false',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('conversations', 'pause_announced');
  }
}
