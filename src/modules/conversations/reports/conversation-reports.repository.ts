import { Injectable } from '@nestjs/common';
import type { AgentScope } from '@/modules/agents/agents.service';
import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import { dayRows } from '@/common/time/day-rows';
import { ReportDay } from '@/common/time/calendar-days';

/** Whose figures are counted (AgentsService.scopeFor). */
export type ReportScope = AgentScope;

export interface ReportTotals {
  conversations: number;
  customer_messages: number;
  ai_replies: number;
  operator_messages: number;
  handed_off: number;
  resolved: number;
  resolved_without_handoff: number;
}

export interface DayFigures {
  date: string;
  conversations: number;
  handed_off: number;
  resolved: number;
}

type Counts<K extends string> = Record<K, number | string | null>;

/** The median of the `seconds` column of the CTE `samples`, both engines (no percentile_cont). */
const MEDIAN_OF_SAMPLES = `, ranked AS (
    SELECT seconds, ROW_NUMBER() OVER (ORDER BY seconds) AS position, COUNT(*) OVER () AS total
    FROM samples WHERE seconds IS NOT NULL
  )
  SELECT AVG(seconds) AS median FROM ranked
  WHERE position IN ((total + 1) / 2, (total + 2) / 2)`;

/**
 * The conversation report's figures, each counted by the database: conversations by when they
 * were created, messages by when they were written, hand-offs and resolutions by when they
 * happened (report_events), a conversation counting once per period however often it was handed
 * off or resolved in it. Notes are not messages to anyone and are not counted.
 */
@Injectable()
export class ConversationReportsRepository {
  constructor(private readonly db: Database) {}

  async totals(scope: ReportScope, starts: Date, ends: Date): Promise<ReportTotals> {
    const p = new SqlParams();
    const conversations = this.inScope('c', scope, p);
    const messages = this.inScope('m', scope, p);
    const events = this.inScope('e', scope, p);
    const [s, e] = [p.add(starts), p.add(ends)];
    const { rows } = await this.db.execute<Counts<keyof ReportTotals>>(
      `SELECT
         (SELECT COUNT(*) FROM conversations c
          WHERE ${conversations} AND c.created_at >= ${s} AND c.created_at < ${e}) AS conversations,
         m.customer_messages, m.ai_replies, m.operator_messages,
         h.handed_off, r.resolved, r.resolved_without_handoff
       FROM (
         SELECT
           SUM(CASE WHEN m.author_type = 'customer' THEN 1 ELSE 0 END) AS customer_messages,
           SUM(CASE WHEN m.author_type = 'ai' THEN 1 ELSE 0 END) AS ai_replies,
           SUM(CASE WHEN m.author_type = 'operator' THEN 1 ELSE 0 END) AS operator_messages
         FROM messages m
         WHERE ${messages} AND m.created_at >= ${s} AND m.created_at < ${e}
           AND m.message_type <> 'note'
       ) m, (
         SELECT COUNT(DISTINCT e.conversation_id) AS handed_off FROM report_events e
         WHERE ${events} AND e.kind = 'handed_off' AND e.created_at >= ${s} AND e.created_at < ${e}
       ) h, (
         SELECT COUNT(DISTINCT e.conversation_id) AS resolved,
           COUNT(DISTINCT CASE WHEN e.after_handoff = ${p.add(false)} THEN e.conversation_id END)
             AS resolved_without_handoff
         FROM report_events e
         WHERE ${events} AND e.kind = 'resolved' AND e.created_at >= ${s} AND e.created_at < ${e}
       ) r`,
      p.values,
    );
    return numbers(rows[0]);
  }

  /** Each day's new conversations, and the conversations handed off and resolved that day. */
  async byDay(scope: ReportScope, days: readonly ReportDay[]): Promise<DayFigures[]> {
    const p = new SqlParams();
    const values = dayRows(p, this.db.dialect, days);
    const conversations = this.inScope('c', scope, p);
    const events = this.inScope('e', scope, p);
    const eventsOf = (kind: string) =>
      `(SELECT COUNT(DISTINCT e.conversation_id) FROM report_events e
        WHERE ${events} AND e.kind = '${kind}'
          AND e.created_at >= d.starts AND e.created_at < d.ends)`;
    const { rows } = await this.db.execute<
      Counts<Exclude<keyof DayFigures, 'date'>> & { date: string }
    >(
      `WITH days (day, starts, ends) AS (VALUES ${values})
       SELECT d.day AS date,
         (SELECT COUNT(*) FROM conversations c
          WHERE ${conversations} AND c.created_at >= d.starts AND c.created_at < d.ends)
           AS conversations,
         ${eventsOf('handed_off')} AS handed_off,
         ${eventsOf('resolved')} AS resolved
       FROM days d ORDER BY d.day`,
      p.values,
    );
    return rows.map(({ date, ...counts }) => ({ date, ...numbers(counts) }));
  }

  /**
   * The median wait, in seconds, of the conversations created in the period: from the customer's
   * first message to the first answer after it by the AI or an operator. Null without one.
   */
  async medianFirstResponse(scope: ReportScope, starts: Date, ends: Date): Promise<number | null> {
    const p = new SqlParams();
    const conversations = this.inScope('c', scope, p);
    const epoch = this.db.dialect.epochSeconds;
    return this.median(
      `WITH firsts AS (
         SELECT c.id AS conversation_id,
           (SELECT MIN(m.seq) FROM messages m
            WHERE m.conversation_id = c.id AND m.author_type = 'customer') AS asked_seq
         FROM conversations c
         WHERE ${conversations} AND c.created_at >= ${p.add(starts)} AND c.created_at < ${p.add(ends)}
       ), samples AS (
         SELECT
           (SELECT MIN(${epoch('a.created_at')}) FROM messages a
            WHERE a.conversation_id = f.conversation_id AND a.seq > f.asked_seq
              AND a.author_type IN ('ai', 'operator') AND a.message_type <> 'note')
           - (SELECT ${epoch('q.created_at')} FROM messages q
              WHERE q.conversation_id = f.conversation_id AND q.seq = f.asked_seq) AS seconds
         FROM firsts f WHERE f.asked_seq IS NOT NULL
       )${MEDIAN_OF_SAMPLES}`,
      p,
    );
  }

  /** The median time, in seconds, from a conversation's creation to its resolutions in the period. */
  async medianResolution(scope: ReportScope, starts: Date, ends: Date): Promise<number | null> {
    const p = new SqlParams();
    const events = this.inScope('e', scope, p);
    const epoch = this.db.dialect.epochSeconds;
    return this.median(
      `WITH samples AS (
         SELECT ${epoch('e.created_at')} - ${epoch('c.created_at')} AS seconds
         FROM report_events e JOIN conversations c ON c.id = e.conversation_id
         WHERE ${events} AND e.kind = 'resolved'
           AND e.created_at >= ${p.add(starts)} AND e.created_at < ${p.add(ends)}
       )${MEDIAN_OF_SAMPLES}`,
      p,
    );
  }

  private async median(sql: string, params: SqlParams): Promise<number | null> {
    const { rows } = await this.db.execute<{ median: number | string | null }>(sql, params.values);
    const median = rows[0]?.median;
    return median === null || median === undefined ? null : Math.round(Number(median) * 10) / 10;
  }

  /** The condition that keeps `alias`'s rows to the scope. */
  private inScope(alias: string, scope: ReportScope, p: SqlParams): string {
    const team = `${alias}.team_id = ${p.add(scope.teamId)}`;
    if (!scope.agentIds) {
      return team;
    }
    return scope.agentIds.length > 0
      ? `${team} AND ${alias}.agent_id IN (${p.list(scope.agentIds)})`
      : '1 = 0';
  }
}

/** The counts as numbers: PostgreSQL hands bigints over as strings, SUM over nothing is null. */
function numbers<K extends string>(row: Counts<K>): Record<K, number> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Number(value ?? 0)]),
  ) as Record<K, number>;
}
