import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { timestampColumn } from './columns';

const LABEL_QUEUE = 'ix_conversation_labels_queue';
const TEAM_ATTENTION = 'ix_conversations_team_attention';

/**
 * The team queue's pages read from indexes:
 * - each label row copies its conversation's `last_message_at`, and the label queue index ends
 *   with it, so that a label filter's page is the first rows of an index range, and its total is
 *   counted from the index alone;
 * - the attention index carries the priority after the last message time, so that a priority
 *   on top of needs_attention and status is tested in the index, for the total and for the
 *   page walked in the list's order.
 */
export class InboxListIndexPages1733194800000 implements MigrationInterface {
  name = 'InboxListIndexPages1733194800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'conversation_labels',
      new TableColumn(timestampColumn(queryRunner, 'last_message_at', true)),
    );
    await queryRunner.query(
      `UPDATE conversation_labels SET last_message_at = (SELECT conversations.last_message_at
       FROM conversations WHERE conversations.id = conversation_labels.conversation_id)`,
    );
    await this.replaceIndex(queryRunner, 'conversation_labels', LABEL_QUEUE, [
      'team_id',
      'label',
      'status',
      'assignee_id',
      'last_message_at',
      'conversation_id',
    ]);
    await this.replaceIndex(queryRunner, 'conversations', TEAM_ATTENTION, [
      'team_id',
      'needs_attention',
      'status',
      'last_message_at',
      'priority',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.replaceIndex(queryRunner, 'conversations', TEAM_ATTENTION, [
      'team_id',
      'needs_attention',
      'status',
      'last_message_at',
    ]);
    await this.replaceIndex(queryRunner, 'conversation_labels', LABEL_QUEUE, [
      'team_id',
      'label',
      'status',
      'assignee_id',
      'conversation_id',
    ]);
    await queryRunner.dropColumn('conversation_labels', 'last_message_at');
  }

  /** Raw statements: the indexes were made by raw ones, which the loaded table metadata lacks. */
  private async replaceIndex(
    queryRunner: QueryRunner,
    table: string,
    name: string,
    columnNames: string[],
  ): Promise<void> {
    await queryRunner.query(`DROP INDEX "${name}"`);
    const columns = columnNames.map((column) => `"${column}"`).join(', ');
    await queryRunner.query(`CREATE INDEX "${name}" ON "${table}" (${columns})`);
  }
}
