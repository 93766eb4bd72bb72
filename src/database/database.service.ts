import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Mutex } from 'async-mutex';
import { DataSource, EntityTarget, ObjectLiteral, QueryRunner } from 'typeorm';
import { isDeadlock } from './errors';
import { GroupCommit } from './group-commit';
import { inSavepoint, SavepointScope } from './savepoint';
import { Dialect, dialectOf, RowLock } from './sql/dialect';
import { Changes, EntityStatements, FindOptions, Statement, Where } from './sql/entity-statements';
import { SqlParam } from './sql/params';
import { RowInserts } from './sql/row-inserts';
import { PreparedStatements, StatementResult } from './sql/statements';

const DEADLOCK_ATTEMPTS = 3;

interface OpenTransaction extends SavepointScope {
  /** The connection the transaction runs on, once it has begun. */
  runner?: QueryRunner;
}

/**
 * The one way to the database. A statement runs on the caller's open transaction when it runs
 * inside `transaction()`, so a repository joins its caller's transaction without being told and
 * nobody passes a connection around. TypeORM keeps the migrations and the entities' metadata.
 *
 * TypeORM gives SQLite a single shared connection: two transactions started concurrently would
 * silently nest as savepoints of each other. On SQLite, transactions therefore take turns behind
 * a mutex (the database has one writer anyway); PostgreSQL transactions each get a pooled
 * connection and run side by side.
 */
@Injectable()
export class Database {
  private readonly logger = new Logger(Database.name);
  private readonly current = new AsyncLocalStorage<OpenTransaction>();
  private readonly holdingWriter = new AsyncLocalStorage<boolean>();
  private readonly writer: Mutex | null;
  private readonly groups: GroupCommit | null;
  private readonly statements: PreparedStatements;
  private readonly inserts: RowInserts;
  private readonly entityStatements: EntityStatements;
  /** What the engine writes its own way (see `sql/dialect.ts`). */
  readonly dialect: Dialect;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.writer = dataSource.options.type === 'postgres' ? null : new Mutex();
    this.groups = this.writer ? new GroupCommit(this) : null;
    this.dialect = dialectOf(dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite');
    this.statements = new PreparedStatements(dataSource, () => this.current.getStore()?.runner);
    this.inserts = new RowInserts(dataSource, this.dialect);
    this.entityStatements = new EntityStatements(dataSource, this.dialect);
  }

  /**
   * Runs one statement of our own (`$1…$n` placeholders), prepared once, on the caller's
   * transaction when it has one. Writes still go through `write()` or `transaction()`.
   */
  execute<R = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlParam[],
  ): Promise<StatementResult<R>> {
    return this.statements.execute<R>(sql, params);
  }

  /**
   * Inserts whole entities in one statement of our own, like `execute`; how many were written.
   * `orIgnore` skips the rows a unique key already holds.
   */
  async insert<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    rows: readonly T[],
    options: { orIgnore?: boolean } = {},
  ): Promise<number> {
    if (rows.length === 0) {
      return 0;
    }
    const { sql, params } = this.inserts.statement(entity, rows, options.orIgnore ?? false);
    return (await this.write(() => this.statements.execute(sql, params))).changes;
  }

  /** The rows `sql` selects from `entity`'s table (every column), as entities. */
  async entities<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    sql: string,
    params?: readonly SqlParam[],
  ): Promise<T[]> {
    return this.hydrate(entity, (await this.statements.execute(sql, params)).rows);
  }

  /** `rows` of `entity`'s table (columns by database name) as entities; absent columns stay unset. */
  hydrate<T extends ObjectLiteral>(entity: EntityTarget<T>, rows: Record<string, unknown>[]): T[] {
    return rows.map(this.statements.mapperFor(entity));
  }

  /** The rows of `entity`'s table that equal `where`, as entities. */
  async find<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Where<T>,
    options?: FindOptions<T>,
  ): Promise<T[]> {
    return this.entitiesOf(entity, this.entityStatements.select(entity, where, options));
  }

  async findOne<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Where<T>,
    options?: Omit<FindOptions<T>, 'limit'>,
  ): Promise<T | null> {
    const statement = this.entityStatements.select(entity, where, { ...options, limit: 1 });
    return (await this.entitiesOf(entity, statement))[0] ?? null;
  }

  async count<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Where<T>): Promise<number> {
    const { sql, params } = this.entityStatements.count(entity, where);
    const { rows } = await this.statements.execute<{ total: number | string }>(sql, params);
    // PostgreSQL's count is a bigint, which its driver hands over as a string.
    return Number(rows[0].total);
  }

  /** Sets `changes` on the rows that equal `where`; how many. A write: see `write()`. */
  async update<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Where<T>,
    changes: Changes<T>,
  ): Promise<number> {
    const { sql, params } = this.entityStatements.update(entity, where, changes);
    return (await this.write(() => this.statements.execute(sql, params))).changes;
  }

  /** Deletes the rows that equal `where`; how many. */
  async delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Where<T>): Promise<number> {
    const { sql, params } = this.entityStatements.delete(entity, where);
    return (await this.write(() => this.statements.execute(sql, params))).changes;
  }

  /** The table `entity` maps, for statements of a repository's own. */
  tableOf(entity: EntityTarget<ObjectLiteral>): string {
    return this.entityStatements.tableOf(entity);
  }

  private async entitiesOf<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    { sql, params }: Statement,
  ): Promise<T[]> {
    return this.hydrate(entity, (await this.statements.execute(sql, params)).rows);
  }

  /** The first row `sql` selects from `entity`'s table, as an entity, or null. */
  async entity<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    sql: string,
    params?: readonly SqlParam[],
  ): Promise<T | null> {
    return (await this.entities(entity, sql, params))[0] ?? null;
  }

  /** Whether the caller runs inside a transaction (its own or one it joined). */
  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /** Runs `work` in a transaction, or in the caller's when it has one open. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) {
      return work();
    }
    return this.retryingDeadlocks(async () => {
      const open: OpenTransaction = { afterCommit: [] };
      const run = () =>
        this.dataSource.transaction(({ queryRunner }) => {
          open.runner = queryRunner;
          return this.current.run(open, work);
        });
      const result = await this.asWriter(run);
      this.current.exit(() => open.afterCommit.forEach((callback) => this.runSafely(callback)));
      return result;
    });
  }

  /**
   * Runs `work` in a transaction it may share with work submitted about the same time (or in the
   * caller's); resolves once its writes are committed; `work` failing undoes its own writes only.
   * On SQLite, whose one writer takes the transactions in turn, several callers' work commits at
   * once (`GroupCommit`, which takes a writer's turn of its own); PostgreSQL runs transactions side
   * by side and groups their commits itself, so each gets its own there.
   */
  grouped<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) {
      return work();
    }
    const groups = this.groups;
    if (!groups) {
      return this.transaction(work);
    }
    // The unit runs in the caller's asynchronous context, inside the group's transaction.
    const inCaller = AsyncResource.bind((open: OpenTransaction) => this.current.run(open, work));
    return this.holdingWriter.exit(() => groups.run(() => inCaller(this.current.getStore()!)));
  }

  /**
   * Runs `work`, a single write statement, as `grouped()` where commits are grouped (SQLite), and
   * on its own as `write()` does elsewhere: one statement needs no transaction of its own.
   */
  writeGrouped<T>(work: () => Promise<T>): Promise<T> {
    return this.groups ? this.grouped(work) : this.write(work);
  }

  /**
   * Runs `work` inside the caller's transaction so that it can fail alone: its writes and the
   * after-commit callbacks it asked for are undone, and the transaction carries on. Savepoints of
   * one transaction nest: they are not taken side by side.
   */
  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const open = this.current.getStore();
    if (!open) {
      throw new Error('A savepoint needs an open transaction');
    }
    return inSavepoint(open, (sql) => this.execute(sql), work);
  }

  /**
   * Runs `work`, a single write statement, in the caller's transaction or on its own. On its own it
   * still takes its turn behind the writer mutex: SQLite has one writer lock, and TypeORM sends
   * every SQLite statement down one shared connection, so a statement sent while another caller's
   * transaction is open would run inside that transaction and commit or roll back with it. Every
   * write therefore goes through `transaction()` (several statements) or `write()` (one).
   */
  async write<T>(work: () => Promise<T>): Promise<T> {
    return this.inTransaction ? work() : this.retryingDeadlocks(() => this.asWriter(work));
  }

  /**
   * Runs `callback` once the caller's outermost transaction has committed (at once outside one):
   * others must not hear of a write that could still roll back. It runs outside the transaction.
   */
  afterCommit(callback: () => void): void {
    const open = this.current.getStore();
    if (open) {
      open.afterCommit.push(callback);
    } else {
      this.runSafely(callback);
    }
  }

  /**
   * Serialises writers on one row for the rest of the transaction (PostgreSQL `FOR UPDATE`, or
   * the lock `mode` names). On SQLite the writer mutex already does this, so nothing is sent.
   */
  async lockRow(table: string, id: string, mode: RowLock = 'update'): Promise<void> {
    if (this.dialect.engine === 'postgres') {
      const sql = `SELECT id FROM "${table}" WHERE id = $1${this.dialect.lock(mode)}`;
      await this.execute(sql, [id]);
    }
  }

  /** Runs `work` outside any transaction of the caller, e.g. background work a request starts. */
  detached<T>(work: () => T): T {
    return this.current.exit(work);
  }

  /** Takes the writer's turn (SQLite), unless the caller already holds it. */
  private asWriter<T>(work: () => Promise<T>): Promise<T> {
    if (!this.writer || this.holdingWriter.getStore()) {
      return work();
    }
    return this.writer.runExclusive(() => this.holdingWriter.run(true, work));
  }

  /**
   * PostgreSQL breaks a deadlock by aborting one of the statements or transactions, and expects it
   * to be run again: it was rolled back whole, its after-commit callbacks never run.
   */
  private async retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) {
          throw error;
        }
      }
    }
  }

  private runSafely(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.logger.error({ err: error }, 'An after-commit callback failed');
    }
  }
}
