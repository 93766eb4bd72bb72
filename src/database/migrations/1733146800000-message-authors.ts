import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { varcharColumn } from './columns';

/** How long the reply worker may take to answer; an answer later than this came from a person. */
const REPLY_WINDOW_S = 120;
/** The service's hand-off line (`handoffReply`), whatever the team's name. */
const HANDOFF_LINE =
  'Thanks for your message. Someone from the % team will get back to you shortly.';

/**
 * Messages name their author: the customer, the AI, an operator (with the id and name the caller
 * gives) or the service itself. Nothing stored marks the messages the reply worker wrote, so old
 * rows are sorted by how the worker writes: `user` rows are the customer's; action lines and the
 * fixed hand-off line (HANDOFF_LINE) are the service's; an assistant text that directly follows
 * (by position) a customer message or an action line, within REPLY_WINDOW_S of it, is the AI's
 * reply (the worker answers each customer message, after its action lines, within seconds);
 * every other assistant text is an operator's.
 */
export class MessageAuthors1733146800000 implements MigrationInterface {
  name = 'MessageAuthors1733146800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('messages', [
      new TableColumn(varcharColumn('author_type', 16, true)),
      new TableColumn(varcharColumn('author_id', 255, true)),
      new TableColumn(varcharColumn('author_name', 255, true)),
    ]);
    const withinWindow =
      queryRunner.connection.options.type === 'postgres'
        ? `messages.created_at - previous.created_at <= interval '${REPLY_WINDOW_S} seconds'`
        : `(julianday(messages.created_at) - julianday(previous.created_at)) * 86400 <= ${REPLY_WINDOW_S}`;
    await queryRunner.query(
      `UPDATE messages SET author_type = CASE
         WHEN role = 'user' THEN 'customer'
         WHEN message_type = 'action' OR message LIKE '${HANDOFF_LINE}' THEN 'system'
         WHEN (SELECT CASE WHEN (previous.role = 'user' OR previous.message_type = 'action')
                 AND ${withinWindow} THEN 1 ELSE 0 END
               FROM messages previous
               WHERE previous.conversation_id = messages.conversation_id
                 AND previous.seq < messages.seq
               ORDER BY previous.seq DESC LIMIT 1) = 1 THEN 'ai'
         ELSE 'operator' END`,
    );
    await queryRunner.changeColumn(
      'messages',
      'author_type',
      new TableColumn(varcharColumn('author_type', 16)),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('messages', 'author_name');
    await queryRunner.dropColumn('messages', 'author_id');
    await queryRunner.dropColumn('messages', 'author_type');
  }
}
