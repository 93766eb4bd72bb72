import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { Dialect, RowLock } from './dialect';
import { SqlParam, SqlParams } from './params';

/** Equality per property: a value, null (IS NULL), or a list of values (IN). */
export type Where<T> = { [K in keyof T]?: T[K] | null | readonly NonNullable<T[K]>[] };

/** Values per property, as an UPDATE sets them. */
export type Changes<T> = { [K in keyof T]?: T[K] };

export interface FindOptions<T> {
  orderBy?: { [K in keyof T]?: 'ASC' | 'DESC' };
  limit?: number;
  /** Locks the rows for the rest of the transaction (PostgreSQL; SQLite's writer turn already does). */
  lock?: RowLock;
}

interface Shape {
  table: string;
  columns: Map<string, string>;
}

export interface Statement {
  sql: string;
  params: SqlParam[];
}

/**
 * The everyday statements of one entity's table (find, update, delete, count by equality), built
 * from its metadata so that repositories name properties, as the entity does, and never write
 * SQL for the plain cases. Anything else is a statement of the repository's own.
 */
export class EntityStatements {
  private readonly shapes = new Map<EntityTarget<ObjectLiteral>, Shape>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly dialect: Dialect,
  ) {}

  select<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Where<T>,
    options: FindOptions<T> = {},
  ): Statement {
    const shape = this.shapeOf(entity);
    const params = new SqlParams();
    const order = Object.entries(options.orderBy ?? {}).map(
      ([property, direction]) => `${this.column(shape, property)} ${String(direction)}`,
    );
    const sql =
      `SELECT * FROM "${shape.table}" WHERE ${this.conditions(shape, where, params)}` +
      (order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '') +
      (options.limit !== undefined ? ` LIMIT ${params.add(options.limit)}` : '') +
      (options.lock ? this.dialect.lock(options.lock) : '');
    return { sql, params: params.values };
  }

  count<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Where<T>): Statement {
    const shape = this.shapeOf(entity);
    const params = new SqlParams();
    const sql = `SELECT count(*) AS total FROM "${shape.table}" WHERE ${this.conditions(shape, where, params)}`;
    return { sql, params: params.values };
  }

  update<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Where<T>,
    changes: Changes<T>,
  ): Statement {
    const shape = this.shapeOf(entity);
    const params = new SqlParams();
    const assignments = Object.entries(changes)
      .filter(([, value]) => value !== undefined)
      .map(
        ([property, value]) =>
          `${this.column(shape, property)} = ${params.add((value ?? null) as SqlParam)}`,
      );
    if (assignments.length === 0) {
      throw new Error(`An update of ${shape.table} changes nothing`);
    }
    const sql = `UPDATE "${shape.table}" SET ${assignments.join(', ')} WHERE ${this.conditions(shape, where, params)}`;
    return { sql, params: params.values };
  }

  delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Where<T>): Statement {
    const shape = this.shapeOf(entity);
    const params = new SqlParams();
    const sql = `DELETE FROM "${shape.table}" WHERE ${this.conditions(shape, where, params)}`;
    return { sql, params: params.values };
  }

  /** The table of `entity`, for statements of a repository's own. */
  tableOf(entity: EntityTarget<ObjectLiteral>): string {
    return this.shapeOf(entity).table;
  }

  private conditions(shape: Shape, where: Where<ObjectLiteral>, params: SqlParams): string {
    const conditions = Object.entries(where)
      .filter(([, value]) => value !== undefined)
      .map(([property, value]) => {
        const column = this.column(shape, property);
        if (value === null) {
          return `${column} IS NULL`;
        }
        if (Array.isArray(value)) {
          return value.length > 0 ? `${column} IN (${params.list(value)})` : '1 = 0';
        }
        return `${column} = ${params.add(value as SqlParam)}`;
      });
    if (conditions.length === 0) {
      // Every statement names what it touches: a whole table is never meant.
      throw new Error(`A statement on ${shape.table} without a condition`);
    }
    return conditions.join(' AND ');
  }

  private column(shape: Shape, property: string): string {
    const column = shape.columns.get(property);
    if (!column) {
      throw new Error(`${shape.table} has no column for ${property}`);
    }
    return `"${column}"`;
  }

  private shapeOf(entity: EntityTarget<ObjectLiteral>): Shape {
    let shape = this.shapes.get(entity);
    if (!shape) {
      const metadata = this.dataSource.getMetadata(entity);
      shape = {
        table: metadata.tableName,
        columns: new Map(
          metadata.columns.map((column) => [column.propertyName, column.databaseName]),
        ),
      };
      this.shapes.set(entity, shape);
    }
    return shape;
  }
}
