import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableForeignKey,
  TableIndex,
} from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  cascadeForeignKey,
  idColumn,
  refColumn,
  textColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

/** How many contacts the backfill writes per statement. */
const BATCH = 200;

interface ChannelUserRow {
  team_id: string;
  channel_type: string;
  channel_user_id: string;
  full_name: string | null;
  email: string | null;
  phone_number: string | null;
  profile_picture: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/**
 * Contacts: one per (team, channel type, channel user id), linked from their conversations.
 * Existing conversations get theirs: one contact per channel user, created when their first
 * conversation was, carrying the details any of their conversations held.
 */
export class Contacts1733150400000 implements MigrationInterface {
  name = 'Contacts1733150400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'contacts',
        columns: [
          idColumn(),
          refColumn('team_id'),
          varcharColumn('channel_type', 32),
          varcharColumn('channel_user_id', 255),
          varcharColumn('full_name', 255, true),
          varcharColumn('email', 255, true),
          varcharColumn('phone_number', 16, true),
          varcharColumn('profile_picture', 2048, true),
          textColumn('notes', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: [
          {
            name: 'uq_contacts_channel_user',
            columnNames: ['team_id', 'channel_type', 'channel_user_id'],
          },
        ],
        foreignKeys: [cascadeForeignKey('teams', 'team_id')],
        indices: [
          new TableIndex({
            name: 'ix_contacts_team_created',
            columnNames: ['team_id', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_contacts_team_updated',
            columnNames: ['team_id', 'updated_at'],
          }),
        ],
      }),
    );
    await queryRunner.addColumn('conversations', new TableColumn(refColumn('contact_id', true)));
    await this.backfill(queryRunner);
    await queryRunner.createForeignKey(
      'conversations',
      new TableForeignKey({
        columnNames: ['contact_id'],
        referencedTableName: 'contacts',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    );
    await queryRunner.createIndex(
      'conversations',
      new TableIndex({ name: 'ix_conversations_contact', columnNames: ['contact_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('conversations', 'ix_conversations_contact');
    const table = await queryRunner.getTable('conversations');
    const foreignKey = table?.foreignKeys.find((key) => key.columnNames.includes('contact_id'));
    if (foreignKey) {
      await queryRunner.dropForeignKey('conversations', foreignKey);
    }
    await queryRunner.dropColumn('conversations', 'contact_id');
    await queryRunner.dropTable('contacts');
  }

  private async backfill(queryRunner: QueryRunner): Promise<void> {
    const users = (await queryRunner.query(
      `SELECT team_id, channel_type, channel_user_id, MAX(full_name) AS full_name,
         MAX(email) AS email, MAX(phone_number) AS phone_number,
         MAX(profile_picture) AS profile_picture, MIN(created_at) AS created_at,
         MAX(updated_at) AS updated_at
       FROM conversations GROUP BY team_id, channel_type, channel_user_id`,
    )) as ChannelUserRow[];
    const postgres = queryRunner.connection.options.type === 'postgres';
    for (let start = 0; start < users.length; start += BATCH) {
      const batch = users.slice(start, start + BATCH);
      const values: unknown[] = [];
      const rows = batch.map((user) => {
        const row = [
          uuidv7(),
          user.team_id,
          user.channel_type,
          user.channel_user_id,
          user.full_name,
          user.email,
          // Only a valid E.164 number fits the contact's column and contract.
          user.phone_number && /^\+[1-9]\d{1,14}$/.test(user.phone_number)
            ? user.phone_number
            : null,
          user.profile_picture,
          user.created_at,
          user.updated_at,
        ];
        const placeholders = row.map((value) => {
          values.push(value);
          return postgres ? `$${values.length}` : '?';
        });
        return `(${placeholders.join(', ')})`;
      });
      await queryRunner.query(
        `INSERT INTO contacts (id, team_id, channel_type, channel_user_id, full_name, email,
           phone_number, profile_picture, created_at, updated_at) VALUES ${rows.join(', ')}`,
        values,
      );
    }
    await queryRunner.query(
      `UPDATE conversations SET contact_id = (SELECT contacts.id FROM contacts
         WHERE contacts.team_id = conversations.team_id
           AND contacts.channel_type = conversations.channel_type
           AND contacts.channel_user_id = conversations.channel_user_id)`,
    );
  }
}
