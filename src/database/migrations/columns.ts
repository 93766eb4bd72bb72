import { QueryRunner, TableColumnOptions, TableForeignKey } from 'typeorm';

/**
 * Column builders shared by the migrations, so that one migration runs unchanged on SQLite and
 * PostgreSQL: only the timestamp type differs between the two.
 */
export function idColumn(name = 'id'): TableColumnOptions {
  return { name, type: 'varchar', length: '36', isPrimary: true };
}

export function refColumn(name: string, nullable = false): TableColumnOptions {
  return { name, type: 'varchar', length: '36', isNullable: nullable };
}

export function varcharColumn(name: string, length: number, nullable = false): TableColumnOptions {
  return { name, type: 'varchar', length: String(length), isNullable: nullable };
}

export function textColumn(name: string, nullable = false): TableColumnOptions {
  return { name, type: 'text', isNullable: nullable };
}

export function integerColumn(name: string, nullable = false): TableColumnOptions {
  return { name, type: 'integer', isNullable: nullable };
}

export function booleanColumn(name: string, defaultValue: boolean): TableColumnOptions {
  return { name, type: 'boolean', isNullable: false, default: defaultValue };
}

export function timestampColumn(
  queryRunner: QueryRunner,
  name: string,
  nullable = false,
): TableColumnOptions {
  const type = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
  return { name, type, isNullable: nullable };
}

/** `column` references `table`.id, and goes when that row goes. */
export function cascadeForeignKey(table: string, column: string): TableForeignKey {
  return new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
}
