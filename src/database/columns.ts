import { Column, PrimaryColumn } from 'typeorm';

/** Ids are UUIDs (common/ids.ts), kept as text. */
const ID = { type: 'varchar', length: 36 } as const;

/** The record's own id. */
export const PrimaryIdColumn = () => PrimaryColumn(ID);

/** The id of another record. */
export const IdColumn = (name: string) => Column({ name, ...ID });

/**
 * A point in time: `datetime` on SQLite, `timestamptz` on PostgreSQL (ConsoleDataSource gives
 * it that type there).
 */
export const TimeColumn = (name: string, options: { nullable?: boolean } = {}) =>
  Column({ name, type: Date, ...options });

/**
 * A boolean with the default the migrations gave it. The default is the SQL literal (`true`,
 * `false`) the migrations wrote and both databases report back; TypeORM would write a boolean
 * default as 1 or 0 on SQLite, which the schema diff would take for a change.
 */
export const BooleanColumn = (name: string, defaultValue: boolean) =>
  Column({ name, type: 'boolean', default: () => String(defaultValue) });
