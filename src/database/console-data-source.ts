import { join } from 'node:path';
import { DataSource } from 'typeorm';

/** Every entity file, for the data sources built outside the application's modules. */
export const ENTITY_FILES = join(__dirname, '..', '**', '*.entity.{ts,js}');

/**
 * TypeORM's DataSource with the entities' time columns typed as the migrations create them.
 * A time column (`TimeColumn`, type Date) is `datetime` on SQLite, which is what TypeORM makes of
 * Date there; on PostgreSQL the migrations create `timestamptz`, while TypeORM makes Date a
 * `timestamp` without time zone, and no single column type names both. Both types read and write
 * a Date alike in TypeORM's PostgreSQL driver, so only the schema diff sees the difference.
 */
export class ConsoleDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'postgres') {
      return;
    }
    for (const column of this.entityMetadatas.flatMap((entity) => entity.columns)) {
      if (column.type === Date) {
        column.type = 'timestamp with time zone';
      }
    }
  }
}
