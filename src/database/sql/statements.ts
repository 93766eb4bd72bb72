import type Sqlite from 'better-sqlite3';
import type { PoolClient } from 'pg';
import {
  DataSource,
  EntityManager,
  EntityTarget,
  ObjectLiteral,
  QueryFailedError,
  QueryRunner,
} from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

import { SqlParam } from './params';

export interface StatementResult<R> {
  rows: R[];
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/** How one entity's rows are turned into entities: the ORM's own conversion per column. */
type RowMapper<T> = (row: Record<string, unknown>) => T;

/**
 * SQL of our own for the hot paths, without the ORM's per-call query building and hydration.
 * Statements are written once with `$1…$n` placeholders, prepared once and reused: on SQLite a
 * better-sqlite3 statement per SQL text, on PostgreSQL a named statement that each pooled
 * connection prepares on first use. They run on the caller's transaction when it has one open.
 * Driver errors come out as the ORM's `QueryFailedError`, so `database/errors.ts` reads them alike.
 */
export class PreparedStatements {
  private readonly sqliteStatements = new Map<string, Sqlite.Statement>();
  private readonly postgresNames = new Map<string, string>();
  private readonly mappers = new Map<EntityTarget<ObjectLiteral>, RowMapper<unknown>>();
  private sqlite: Sqlite.Database | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly currentManager: () => EntityManager,
  ) {}

  async execute<R = Record<string, unknown>>(
    sql: string,
    params: readonly SqlParam[] = [],
  ): Promise<StatementResult<R>> {
    return this.dataSource.options.type === 'postgres'
      ? this.onPostgres<R>(sql, params)
      : this.onSqlite<R>(await this.sqliteConnection(), sql, params);
  }

  /**
   * The one connection TypeORM opens to a SQLite file, transactions included: every query runner
   * of the SQLite drivers hands out that same connection.
   */
  private async sqliteConnection(): Promise<Sqlite.Database> {
    this.sqlite ??= (await this.dataSource.createQueryRunner().connect()) as Sqlite.Database;
    return this.sqlite;
  }

  /** A function turning rows of `entity`'s table (all its columns, by column name) into entities. */
  mapperFor<T extends ObjectLiteral>(entity: EntityTarget<T>): RowMapper<T> {
    let mapper = this.mappers.get(entity) as RowMapper<T> | undefined;
    if (!mapper) {
      const metadata = this.dataSource.getMetadata(entity);
      const driver = this.dataSource.driver;
      const columns = metadata.columns.map((column: ColumnMetadata) => ({
        column,
        name: column.databaseName,
        property: column.propertyName,
      }));
      mapper = (row) => {
        const entityValue: Record<string, unknown> = {};
        for (const { column, name, property } of columns) {
          entityValue[property] = driver.prepareHydratedValue(row[name], column);
        }
        return entityValue as T;
      };
      this.mappers.set(entity, mapper);
    }
    return mapper;
  }

  private onSqlite<R>(
    db: Sqlite.Database,
    sql: string,
    params: readonly SqlParam[],
  ): StatementResult<R> {
    let statement = this.sqliteStatements.get(sql);
    try {
      if (!statement) {
        statement = db.prepare(sql);
        this.sqliteStatements.set(sql, statement);
      }
      // SQLite reads `$1` as a parameter named "1": bound from an object keyed 1…n.
      const values: Record<number, unknown>[] = [];
      if (params.length > 0) {
        const named: Record<number, unknown> = {};
        params.forEach((value, index) => (named[index + 1] = sqliteValue(value)));
        values.push(named);
      }
      if (statement.reader) {
        const rows = statement.all(...values) as R[];
        return { rows, changes: rows.length };
      }
      return { rows: [], changes: statement.run(...values).changes };
    } catch (error) {
      throw new QueryFailedError(sql, params as unknown[], error as Error);
    }
  }

  private async onPostgres<R>(
    sql: string,
    params: readonly SqlParam[],
  ): Promise<StatementResult<R>> {
    let name = this.postgresNames.get(sql);
    if (!name) {
      name = `console_${this.postgresNames.size + 1}`;
      this.postgresNames.set(sql, name);
    }
    const transaction = this.currentManager().queryRunner;
    const inTransaction =
      transaction !== undefined && !transaction.isReleased && transaction.isTransactionActive;
    // Outside a transaction the statement borrows a pooled connection for itself.
    const runner: QueryRunner = inTransaction ? transaction : this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      const result = await client.query({ name, text: sql, values: params.map(postgresValue) });
      return { rows: result.rows as R[], changes: result.rowCount ?? 0 };
    } catch (error) {
      throw new QueryFailedError(sql, params as unknown[], error as Error);
    } finally {
      if (!inTransaction) {
        await runner.release();
      }
    }
  }
}

function sqliteValue(value: SqlParam): unknown {
  if (value instanceof Date) {
    // The ORM's SQLite datetime text: UTC, `YYYY-MM-DD HH:MM:SS.SSS`.
    return value.toISOString().replace('T', ' ').replace('Z', '');
  }
  if (typeof value === 'boolean') {
    return value ? 1 : 0;
  }
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

function postgresValue(value: SqlParam): unknown {
  return value !== null && typeof value === 'object' && !(value instanceof Date)
    ? JSON.stringify(value)
    : value;
}
