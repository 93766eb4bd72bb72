import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { Dialect } from './dialect';
import { SqlParam } from './params';

interface InsertShape {
  table: string;
  columns: string[];
  properties: string[];
}

/**
 * INSERT statements of our own for whole entities: every column, in the metadata's order, with
 * one `$n` placeholder per value. The SQL of each entity and row count is built once.
 */
export class RowInserts {
  private readonly shapes = new Map<EntityTarget<ObjectLiteral>, InsertShape>();
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly dialect: Dialect,
  ) {}

  statement<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    rows: readonly T[],
    orIgnore: boolean,
  ): { sql: string; params: SqlParam[] } {
    const shape = this.shapeOf(entity);
    const key = `${shape.table}:${rows.length}:${orIgnore}`;
    let sql = this.texts.get(key);
    if (!sql) {
      const width = shape.columns.length;
      const tuples = rows.map(
        (_, row) =>
          `(${shape.columns.map((__, column) => `$${row * width + column + 1}`).join(', ')})`,
      );
      const columns = shape.columns.map((column) => `"${column}"`).join(', ');
      const { head, tail } = orIgnore
        ? this.dialect.insertOrIgnore
        : { head: 'INSERT INTO', tail: '' };
      sql = `${head} "${shape.table}" (${columns}) VALUES ${tuples.join(', ')}${tail}`;
      this.texts.set(key, sql);
    }
    const params = rows.flatMap((row) =>
      shape.properties.map((property) => (row[property] ?? null) as SqlParam),
    );
    return { sql, params };
  }

  private shapeOf(entity: EntityTarget<ObjectLiteral>): InsertShape {
    let shape = this.shapes.get(entity);
    if (!shape) {
      const metadata = this.dataSource.getMetadata(entity);
      shape = {
        table: metadata.tableName,
        columns: metadata.columns.map((column) => column.databaseName),
        properties: metadata.columns.map((column) => column.propertyName),
      };
      this.shapes.set(entity, shape);
    }
    return shape;
  }
}
