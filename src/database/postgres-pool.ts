import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** The pg pool the data source connected with (PostgreSQL), or null (SQLite has no pool). */
export function postgresPool(dataSource: DataSource): Pool | null {
  const driver = dataSource.driver;
  return driver instanceof PostgresDriver ? (driver.master as Pool) : null;
}
