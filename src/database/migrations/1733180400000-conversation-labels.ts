import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { cascadeForeignKey, refColumn, varcharColumn } from './columns';

/** How many conversations the backfill reads per statement. */
const READ_BATCH = 1_000;
/** How many label rows the backfill writes per statement. */
const WRITE_BATCH = 200;

interface ConversationRow {
  id: string;
  team_id: string;
  status: string;
  assignee_id: string | null;
  labels: string;
}

/** The distinct labels a stored `labels` column holds (a JSON array of strings). */
function storedLabels(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed)
      ? [...new Set(parsed.filter((label): label is string => typeof label === 'string'))]
      : [];
  } catch {
    return [];
  }
}

/**
 * A row per label of a conversation, with its team, status and assignee beside it, so that an
 * index serves the team queue's label filter and its total (the JSON array in
 * `conversations.labels` stays what the API returns). Existing conversations get their rows.
 */
export class ConversationLabels1733180400000 implements MigrationInterface {
  name = 'ConversationLabels1733180400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'conversation_labels',
        columns: [
          { ...refColumn('conversation_id'), isPrimary: true },
          { ...varcharColumn('label', 50), isPrimary: true },
          refColumn('team_id'),
          varcharColumn('status', 16),
          varcharColumn('assignee_id', 255, true),
        ],
        foreignKeys: [cascadeForeignKey('conversations', 'conversation_id')],
        indices: [
          new TableIndex({
            name: 'ix_conversation_labels_queue',
            columnNames: ['team_id', 'label', 'status', 'assignee_id', 'conversation_id'],
          }),
        ],
      }),
    );
    await this.backfill(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('conversation_labels');
  }

  /** The labelled conversations, a page at a time in id order, each page's rows in batches. */
  private async backfill(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const mark = (values: unknown[], value: unknown) => {
      values.push(value);
      return postgres ? `$${values.length}` : '?';
    };
    let after = '';
    for (;;) {
      const conversations = (await queryRunner.query(
        `SELECT id, team_id, status, assignee_id, labels FROM conversations
         WHERE id > ${postgres ? '$1' : '?'} AND labels <> '[]' ORDER BY id LIMIT ${READ_BATCH}`,
        [after],
      )) as ConversationRow[];
      if (conversations.length === 0) {
        return;
      }
      after = conversations[conversations.length - 1].id;
      const rows = conversations.flatMap((row) =>
        storedLabels(row.labels).map((label) => [
          row.id,
          label,
          row.team_id,
          row.status,
          row.assignee_id,
        ]),
      );
      for (let start = 0; start < rows.length; start += WRITE_BATCH) {
        const values: unknown[] = [];
        const tuples = rows
          .slice(start, start + WRITE_BATCH)
          .map((row) => `(${row.map((value) => mark(values, value)).join(', ')})`);
        await queryRunner.query(
          `INSERT INTO conversation_labels (conversation_id, label, team_id, status, assignee_id)
           VALUES ${tuples.join(', ')}`,
          values,
        );
      }
    }
  }
}
