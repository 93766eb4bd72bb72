import { Column, PrimaryColumn } from 'typeorm';

/** Ids are UUIDs (common/ids.ts), kept as text. */
const ID = { type: 'varchar', length: 36 } as const;

/** The record's own id. */
export const PrimaryIdColumn = () => PrimaryColumn(ID);

/** The id of another record. */
export const IdColumn = (name: string) => Column({ name, ...ID });

/** A point in time. */
export const TimeColumn = (name: string, options: { nullable?: boolean } = {}) =>
  Column({ name, type: Date, ...options });
