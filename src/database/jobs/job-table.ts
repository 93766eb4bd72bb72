import { randomUUID } from 'node:crypto';
import { EntityTarget, ObjectLiteral } from 'typeorm';
import { Database } from '../database.service';
import { SqlParam, SqlParams } from '../sql/params';
import { ClaimBatches } from './claim-batches';

/** Where a table keeps the jobs it holds: one row, one job. */
export interface JobTableSpec {
  table: string;
  /**
   * The condition (on the table's own columns) under which a row is due, the free-lease test
   * aside; `now` is the moment of the question.
   */
  due(params: SqlParams, now: Date): string;
  /** The column ordering due rows, oldest first. */
  dueOrder: string;
  /** The column counting claims, when the table keeps one. */
  attempts?: string;
  /**
   * The column naming whose job a row is (`team_id` unless said), served in turn by `due`; null
   * for a table whose jobs belong to no team (all served in one line).
   */
  teamColumn?: string | null;
  /** Column names when they differ from `lease_until` and `lease_token`. */
  leaseColumn?: string;
  tokenColumn?: string;
}

/**
 * A claimed job: the row as the claim left it, and the token that proves the claim. Rows claimed
 * together share a token: with the row's id it names one claim (a row claimed again gets another).
 */
export interface Claim<T> {
  row: T;
  token: string;
}

/**
 * The leased-job protocol over one table, the same for every worker. A worker claims a due row
 * with a lease (a deadline) and a token; while it holds the claim it may renew the lease; its
 * outcome is written only while the token still holds the row (`settle`, `settleWith`, `remove`),
 * so a worker whose lease ran out and whose job another took cannot overwrite the newer outcome.
 * `due` serves teams in turn (round-robin), so one team's backlog never hides another's jobs.
 */
export class JobTable<T extends ObjectLiteral> {
  private readonly lease: string;
  private readonly token: string;
  private readonly batches: ClaimBatches<T>;

  constructor(
    private readonly db: Database,
    private readonly entity: EntityTarget<T>,
    private readonly spec: JobTableSpec,
  ) {
    this.lease = spec.leaseColumn ?? 'lease_until';
    this.token = spec.tokenColumn ?? 'lease_token';
    this.batches = new ClaimBatches(db, (ids, leaseMs, now, token) =>
      this.claimRows(ids, leaseMs, now, token),
    );
  }

  /**
   * Takes the row for `leaseMs` if it is due (at `now`, by default when the claim is written) and
   * free; null when it is not. Resolves once the claim is committed. Claims asked for before the
   * statement of the first runs are written with it, in one statement and one commit (see
   * `ClaimBatches`); inside a transaction the claim joins it, alone.
   */
  async claim(id: string, leaseMs: number, now?: Date): Promise<Claim<T> | null> {
    if (this.db.inTransaction) {
      const token = randomUUID();
      const row = (await this.claimRows([id], leaseMs, now ?? new Date(), token)).get(id);
      return row ? { row, token } : null;
    }
    return this.batches.claim(id, leaseMs, now);
  }

  /** Claims the due and free rows among `ids` with `token`, in one statement; those claimed, by id. */
  private async claimRows(
    ids: readonly string[],
    leaseMs: number,
    now: Date,
    token: string,
  ): Promise<Map<string, T>> {
    const params = new SqlParams();
    const counted = this.spec.attempts ? `, ${this.spec.attempts} = ${this.spec.attempts} + 1` : '';
    const sql =
      `UPDATE ${this.spec.table} SET ${this.lease} = ${params.add(new Date(now.getTime() + leaseMs))}, ` +
      `${this.token} = ${params.add(token)}${counted} ` +
      `WHERE id IN (${params.list(ids)}) AND ${this.free(params, now)} AND (${this.spec.due(params, now)}) ` +
      'RETURNING *';
    const { rows } = await this.db.write(() => this.db.execute<{ id: string }>(sql, params.values));
    const claimed = this.db.hydrate(this.entity, rows);
    return new Map(rows.map((row, index) => [row.id, claimed[index]]));
  }

  /** Extends the lease of a claim still held; false when it was lost. */
  async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    const params = new SqlParams();
    const sql =
      `UPDATE ${this.spec.table} SET ${this.lease} = ${params.add(new Date(Date.now() + leaseMs))} ` +
      `WHERE id = ${params.add(id)} AND ${this.token} = ${params.add(token)}`;
    return (await this.db.write(() => this.db.execute(sql, params.values))).changes > 0;
  }

  /**
   * Writes the job's outcome (`changes`: column → value) and frees it, only while `token` still
   * holds it; whether it did. Inside a transaction it joins it.
   */
  async settle(id: string, token: string, changes: Record<string, SqlParam>): Promise<boolean> {
    const params = new SqlParams();
    const assignments = Object.entries(changes).map(
      ([column, value]) => `${column} = ${params.add(value)}, `,
    );
    const sql =
      `UPDATE ${this.spec.table} SET ${assignments.join('')}${this.lease} = NULL, ${this.token} = NULL ` +
      `WHERE id = ${params.add(id)} AND ${this.token} = ${params.add(token)}`;
    return (await this.db.write(() => this.db.execute(sql, params.values))).changes > 0;
  }

  /**
   * Settles the job with `changes` and then runs `work` in the same transaction, only while the
   * claim holds: `work` writes the rest of the outcome (other tables, events). Null when the
   * claim was lost.
   */
  settleWith<R>(
    id: string,
    token: string,
    changes: Record<string, SqlParam>,
    work: () => Promise<R>,
  ): Promise<{ result: R } | null> {
    return this.db.transaction(async () =>
      (await this.settle(id, token, changes)) ? { result: await work() } : null,
    );
  }

  /** Deletes the job's row, only while `token` holds it (a job done is a row gone). */
  async remove(id: string, token: string): Promise<boolean> {
    const params = new SqlParams();
    const sql = `DELETE FROM ${this.spec.table} WHERE id = ${params.add(id)} AND ${this.token} = ${params.add(token)}`;
    return (await this.db.write(() => this.db.execute(sql, params.values))).changes > 0;
  }

  /** Gives the job back unsettled (due again at once) while `token` holds it. */
  async release(id: string, token: string): Promise<boolean> {
    return this.settle(id, token, {});
  }

  /**
   * Due and free rows, at most `perTeam` of each team, teams in turn: the first job of every team,
   * then the second of every team, and so on.
   */
  async due(limit: number, perTeam: number, now = new Date()): Promise<T[]> {
    const params = new SqlParams();
    const team = this.spec.teamColumn === undefined ? 'team_id' : this.spec.teamColumn;
    const partition = team === null ? '' : `PARTITION BY ${team} `;
    const sql =
      `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (${partition}ORDER BY ${this.spec.dueOrder}, id) AS job_turn ` +
      `FROM ${this.spec.table} WHERE ${this.free(params, now)} AND (${this.spec.due(params, now)})) AS ranked ` +
      `WHERE job_turn <= ${params.add(perTeam)} ORDER BY job_turn, ${this.spec.dueOrder}, id LIMIT ${params.add(limit)}`;
    return this.db.entities(this.entity, sql, params.values);
  }

  /** Frees every lease: at start in embedded mode, where no other process can hold one. */
  async releaseAll(): Promise<void> {
    await this.db.write(() =>
      this.db.execute(
        `UPDATE ${this.spec.table} SET ${this.lease} = NULL, ${this.token} = NULL WHERE ${this.lease} IS NOT NULL`,
      ),
    );
  }

  private free(params: SqlParams, now: Date): string {
    return `(${this.lease} IS NULL OR ${this.lease} < ${params.add(now)})`;
  }
}
