import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { varcharColumn } from './columns';

/** The contact details conversations held before contacts (1733150400000) took them over. */
const COLUMNS = [
  varcharColumn('full_name', 255, true),
  varcharColumn('email', 255, true),
  varcharColumn('phone_number', 64, true),
  varcharColumn('profile_picture', 2048, true),
];

/**
 * A conversation's contact details live on its contact: the contacts migration copied them
 * there, and nothing has read or written the conversation's own columns since. They go.
 * Going back restores them (nullable, as they were) filled from each conversation's contact.
 */
export class DropConversationContactColumns1733173200000 implements MigrationInterface {
  name = 'DropConversationContactColumns1733173200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of COLUMNS) {
      await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "${column.name}"`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns(
      'conversations',
      COLUMNS.map((column) => new TableColumn(column)),
    );
    const fromContact = (column: string) =>
      `"${column}" = (SELECT contacts."${column}" FROM contacts ` +
      'WHERE contacts.id = conversations.contact_id)';
    await queryRunner.query(
      `UPDATE conversations SET ${COLUMNS.map((column) => fromContact(column.name)).join(', ')} ` +
        'WHERE contact_id IS NOT NULL',
    );
  }
}
