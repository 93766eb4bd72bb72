import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  booleanColumn,
  cascadeForeignKey,
  idColumn,
  refColumn,
  timestampColumn,
  varcharColumn,
} from './columns';

/** How many events the backfill writes per statement. */
const BATCH = 200;

interface ConversationRow {
  id: string;
  team_id: string;
  agent_id: string;
  status: string;
  handoff_at: string | Date | null;
  updated_at: string | Date;
}

/**
 * Conversation reports: the hand-offs and resolutions they count (a conversation keeps only its
 * latest hand-off and its current status), and the indexes that read a team's conversations and
 * messages by creation time. Existing conversations give what they still know: their latest
 * hand-off, and a resolution at their last update when they are resolved.
 */
export class ConversationReports1733166000000 implements MigrationInterface {
  name = 'ConversationReports1733166000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'report_events',
        columns: [
          idColumn(),
          refColumn('team_id'),
          refColumn('agent_id'),
          refColumn('conversation_id'),
          varcharColumn('kind', 16),
          booleanColumn('after_handoff', false),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          cascadeForeignKey('teams', 'team_id'),
          cascadeForeignKey('conversations', 'conversation_id'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_report_events_team_kind_created',
            columnNames: ['team_id', 'kind', 'created_at'],
          }),
          new TableIndex({
            name: 'ix_report_events_conversation',
            columnNames: ['conversation_id'],
          }),
        ],
      }),
    );
    await queryRunner.createIndex(
      'conversations',
      new TableIndex({
        name: 'ix_conversations_team_created',
        columnNames: ['team_id', 'created_at'],
      }),
    );
    await queryRunner.createIndex(
      'messages',
      new TableIndex({ name: 'ix_messages_team_created', columnNames: ['team_id', 'created_at'] }),
    );
    await this.backfill(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('messages', 'ix_messages_team_created');
    await queryRunner.dropIndex('conversations', 'ix_conversations_team_created');
    await queryRunner.dropTable('report_events');
  }

  private async backfill(queryRunner: QueryRunner): Promise<void> {
    const conversations = (await queryRunner.query(
      `SELECT id, team_id, agent_id, status, handoff_at, updated_at FROM conversations
       WHERE handoff_at IS NOT NULL OR status = 'resolved'`,
    )) as ConversationRow[];
    const events = conversations.flatMap((row) => [
      ...(row.handoff_at ? [[row, 'handed_off', false, row.handoff_at] as const] : []),
      ...(row.status === 'resolved'
        ? [[row, 'resolved', row.handoff_at !== null, row.updated_at] as const]
        : []),
    ]);
    const postgres = queryRunner.connection.options.type === 'postgres';
    for (let start = 0; start < events.length; start += BATCH) {
      const values: unknown[] = [];
      const rows = events.slice(start, start + BATCH).map(([row, kind, afterHandoff, at]) => {
        const fields = [uuidv7(), row.team_id, row.agent_id, row.id, kind, afterHandoff, at];
        const placeholders = fields.map((value) => {
          values.push(postgres || typeof value !== 'boolean' ? value : Number(value));
          return postgres ? `$${values.length}` : '?';
        });
        return `(${placeholders.join(', ')})`;
      });
      await queryRunner.query(
        `INSERT INTO report_events
           (id, team_id, agent_id, conversation_id, kind, after_handoff, created_at)
         VALUES ${rows.join(', ')}`,
        values,
      );
    }
  }
}
