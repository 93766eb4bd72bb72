import { DataSource } from 'typeorm';

/**
 * The statements TypeORM would run to make `dataSource`'s schema match its entities: what
 * `migration:generate` writes into a migration's `up`. Nothing is run. On a database the
 * migrations brought up to date there must be none, or the entities misdescribe the schema.
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const changes = await dataSource.driver.createSchemaBuilder().log();
  return changes.upQueries.map((query) => query.query);
}
