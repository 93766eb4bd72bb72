import { Injectable } from '@nestjs/common';
import type { AgentScope } from '@/modules/agents/agents.service';
import type { ReportDay } from '@/common/time/calendar-days';
import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import { dayRows } from '@/common/time/day-rows';
import { ModelCallEntity } from './entities/model-call.entity';

/** Whose figures are counted (AgentsService.scopeFor). */
export type UsageScope = AgentScope;

export interface UsageTotals {
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface UsageRow extends UsageTotals {
  key: string;
  failed_calls: number;
}

type Counts<K extends string> = Record<K, number | string | null>;

const SUMS = `COUNT(*) AS model_calls,
  SUM(mc.prompt_tokens) AS prompt_tokens,
  SUM(mc.completion_tokens) AS completion_tokens`;

/** The model calls, one row each, and their sums, counted by the database. */
@Injectable()
export class ModelCallsRepository {
  constructor(private readonly db: Database) {}

  async record(call: ModelCallEntity): Promise<void> {
    await this.db.insert(ModelCallEntity, [call]);
  }

  async conversationTotals(teamId: string, conversationId: string): Promise<UsageTotals> {
    const p = new SqlParams();
    const { rows } = await this.db.execute<Counts<keyof UsageTotals>>(
      `SELECT ${SUMS} FROM model_calls mc
       WHERE mc.conversation_id = ${p.add(conversationId)} AND mc.team_id = ${p.add(teamId)}`,
      p.values,
    );
    return numbers(rows[0]);
  }

  /** The team's prompt + completion tokens since `starts` (through the team's time index). */
  async tokensSince(teamId: string, starts: Date): Promise<number> {
    const p = new SqlParams();
    const { rows } = await this.db.execute<{ tokens: number | string | null }>(
      `SELECT SUM(mc.prompt_tokens + mc.completion_tokens) AS tokens FROM model_calls mc
       WHERE mc.team_id = ${p.add(teamId)} AND mc.created_at >= ${p.add(starts)}`,
      p.values,
    );
    return Number(rows[0]?.tokens ?? 0);
  }

  /** One row per agent or model with calls in the period, in the order of their keys. */
  async byColumn(
    scope: UsageScope,
    column: 'agent_id' | 'model',
    starts: Date,
    ends: Date,
  ): Promise<UsageRow[]> {
    const p = new SqlParams();
    const where = this.inScope(scope, p);
    const { rows } = await this.db.execute<
      Counts<Exclude<keyof UsageRow, 'key'>> & { key: string }
    >(
      `SELECT mc.${column} AS key, ${SUMS}, ${this.failures(p)}
       FROM model_calls mc
       WHERE ${where} AND mc.created_at >= ${p.add(starts)} AND mc.created_at < ${p.add(ends)}
       GROUP BY mc.${column} ORDER BY mc.${column}`,
      p.values,
    );
    return rows.map(({ key, ...counts }) => ({ key, ...numbers(counts) }));
  }

  /** One row per day with calls, in order. */
  async byDay(scope: UsageScope, days: readonly ReportDay[]): Promise<UsageRow[]> {
    const p = new SqlParams();
    const values = dayRows(p, this.db.dialect, days);
    const where = this.inScope(scope, p);
    const { rows } = await this.db.execute<
      Counts<Exclude<keyof UsageRow, 'key'>> & { key: string }
    >(
      `WITH days (day, starts, ends) AS (VALUES ${values})
       SELECT d.day AS key, ${SUMS}, ${this.failures(p)}
       FROM days d
       JOIN model_calls mc ON mc.created_at >= d.starts AND mc.created_at < d.ends
       WHERE ${where}
       GROUP BY d.day ORDER BY d.day`,
      p.values,
    );
    return rows.map(({ key, ...counts }) => ({ key, ...numbers(counts) }));
  }

  private failures(p: SqlParams): string {
    return `SUM(CASE WHEN mc.ok = ${p.add(false)} THEN 1 ELSE 0 END) AS failed_calls`;
  }

  private inScope(scope: UsageScope, p: SqlParams): string {
    const team = `mc.team_id = ${p.add(scope.teamId)}`;
    if (!scope.agentIds) {
      return team;
    }
    return scope.agentIds.length > 0
      ? `${team} AND mc.agent_id IN (${p.list(scope.agentIds)})`
      : '1 = 0';
  }
}

/** The counts as numbers: PostgreSQL hands bigints over as strings, SUM over nothing is null. */
function numbers<K extends string>(row: Counts<K>): Record<K, number> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Number(value ?? 0)]),
  ) as Record<K, number>;
}
