/** A statement's parameter: Dates, booleans and JSON values are stored as the ORM stores them. */
export type SqlParam = string | number | boolean | Date | null | object;

/** Collects a statement's parameters and hands out their `$n` placeholders. */
export class SqlParams {
  readonly values: SqlParam[] = [];

  add(value: SqlParam): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** One placeholder per value, comma-separated, for an `IN (…)` list. */
  list(values: readonly SqlParam[]): string {
    return values.map((value) => this.add(value)).join(', ');
  }
}
