/** The database engines the service runs on. */
export type Engine = 'sqlite' | 'postgres';

/**
 * How a SELECT locks its rows (PostgreSQL's row locks). `no key update` serialises writers of a
 * row without blocking the key-share locks that inserting rows referencing it take.
 */
export type RowLock = 'update' | 'no key update' | 'key share';

/**
 * Everything SQL the two engines write differently, in one place: statements elsewhere are
 * plain SQL both engines read alike, with `$1…$n` placeholders (bound by name on SQLite).
 */
export interface Dialect {
  readonly engine: Engine;
  /**
   * Whether the database lives in this process alone (SQLite): at start no other process can hold
   * a lease, and a transaction holds the one writer lock until it commits.
   */
  readonly embedded: boolean;
  /** Whether `text` holds `needle` (both expressions) as a substring. */
  contains(text: string, needle: string): string;
  /** What ends a SELECT that locks its rows for the rest of the transaction (SQLite: nothing). */
  lock(mode: RowLock): string;
  /** The two ends of an INSERT that skips rows a unique key already holds. */
  insertOrIgnore: { head: string; tail: string };
  /** A condition: some element of the JSON array of strings in `column` meets `condition(value)`. */
  anyJsonElement(column: string, condition: (element: string) => string): string;
  /** The point in time `expression` holds, in seconds since 1970 (fractional). */
  epochSeconds: (expression: string) => string;
  /** A parameter read as a point in time where nothing else tells its type (a VALUES list). */
  timeParam: (placeholder: string) => string;
}

const sqlite: Dialect = {
  engine: 'sqlite',
  embedded: true,
  contains: (text, needle) => `instr(${text}, ${needle}) > 0`,
  // SQLite has one writer at a time: the writer's turn (Database) is the lock.
  lock: () => '',
  insertOrIgnore: { head: 'INSERT OR IGNORE INTO', tail: '' },
  anyJsonElement: (column, condition) =>
    `EXISTS (SELECT 1 FROM json_each(${column}) WHERE ${condition('value')})`,
  // Julian days are fractional days; datetime text in, seconds out.
  epochSeconds: (expression) => `((julianday(${expression}) - 2440587.5) * 86400.0)`,
  timeParam: (placeholder) => placeholder,
};

const postgres: Dialect = {
  engine: 'postgres',
  embedded: false,
  contains: (text, needle) => `strpos(${text}, ${needle}) > 0`,
  lock: (mode) => ` FOR ${mode.toUpperCase()}`,
  insertOrIgnore: { head: 'INSERT INTO', tail: ' ON CONFLICT DO NOTHING' },
  anyJsonElement: (column, condition) =>
    `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS element ` +
    `WHERE ${condition('element')})`,
  epochSeconds: (expression) => `EXTRACT(EPOCH FROM ${expression})`,
  timeParam: (placeholder) => `CAST(${placeholder} AS timestamptz)`,
};

export function dialectOf(engine: Engine): Dialect {
  return engine === 'postgres' ? postgres : sqlite;
}
