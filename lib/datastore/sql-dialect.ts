// What the datastore's SQL needs of a database: a client (query, run, transaction) and a
// dialect (what differs between SQLite and PostgreSQL: placeholders, column types,
// case-insensitive LIKE, byte-order collation, how a value is bound). And the datastore's own
// names: a resource's table is `ds_<hash>` with columns `c1…cN` (the CSV's names live in the
// `datastore_tables` catalogue), so that no name from a request ever reaches the SQL text.
import type { Field, FieldType, Value } from './contract.ts';

export type Row = Record<string, unknown>;

export interface SqlClient {
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Statements without parameters (a migration step). */
  exec(sql: string): Promise<void>;
  /**
   * A user's SELECT (already admitted by sql-guard.ts) run so that it cannot write: in a
   * read-only transaction or connection, reading only the tables `run.tables` (our own names),
   * stopped after `run.timeoutMs` and after `run.rowsMax + 1` rows. Its own failures are
   * `invalid` errors naming `sql`.
   */
  readOnly(sql: string, run: ReadOnlyRun): Promise<ReadOnlyAnswer>;
  /** `fn` on one connection inside BEGIN … COMMIT, rolled back when it throws. */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ReadOnlyRun {
  tables: string[];
  rowsMax: number;
  timeoutMs: number;
}

export interface ReadOnlyAnswer {
  /** The columns in order; `type` when the database says it. */
  columns: { name: string; type?: FieldType }[];
  rows: unknown[][];
}

export interface SqlDialect {
  name: 'sqlite' | 'postgres';
  /** The n-th (1-based) parameter's placeholder; parameters are numbered in order of appearance. */
  placeholder(n: number): string;
  /** Parameters per statement the driver accepts. */
  maxParameters: number;
  columnType(type: FieldType): string;
  idColumn: string;
  /** Case-insensitive LIKE (SQLite's LIKE is, for ASCII; PostgreSQL's ILIKE). */
  like: string;
  /** Appended to a text column in ORDER BY: code-point order in both. */
  textOrder: string;
  /**
   * ORDER BY terms of a column with nulls as the largest value, and the index that serves
   * them (SQLite reads an index in its own null order only, hence `c IS NULL, c`).
   */
  orderBy(column: string, descending: boolean): string;
  indexOn(column: string): string;
  /** Statistics for a new index (both names quoted, the index's schema-qualified). */
  analyze(index: string, table: string): string;
  /**
   * After a table's indexes are made at once (indexForPreview): its statistics, and in
   * PostgreSQL its visibility map too (VACUUM), so that a filter's total is counted from the
   * index alone, not from the rows each index entry points at.
   */
  settle(table: string): string;
  /** A column as selected (PostgreSQL gives dates as text, not Date objects). */
  select(column: string, type: FieldType): string;
  bind(value: Value): unknown;
  /**
   * How rows go in: `values`, multi-row `INSERT … VALUES (…), (…)` with a parameter per value;
   * `arrays`, `INSERT … SELECT * FROM unnest($1::type[], …)` with one array parameter per
   * column (PostgreSQL: a few parameters for thousands of rows, each parsed as one array).
   */
  insert: 'values' | 'arrays';
  /** An array parameter as the driver is given it (default: the array itself). */
  array?(values: unknown[]): unknown;
  /** The type of a table's `rest` column: a JSON object of the columns past the inline ones. */
  restType: string;
  /**
   * The value of `rest`'s key `key` as the type compares (an expression, parenthesized, that
   * an index can be made on).
   */
  restValue(key: string, type: FieldType): string;
  /** Whether any of `rest`'s keys listed in `keys` (a parameter: `restKeys`) has a value LIKE `pattern`. */
  restContains(keys: string, pattern: string): string;
  /**
   * Appended to each table's CTE in datastore_search_sql: SQLite has no statement timeout, so
   * a function of the row (registered by its client) stops a query past its time.
   */
  liveCheck: string;
  /**
   * A filter's column written so that the planner does not read it by its index (SQLite's
   * unary `+`), for a page read off the sort's index instead (search-sql.ts); the column as it
   * is where the planner weighs a LIMIT itself (PostgreSQL).
   */
  unindexed(column: string): string;
  /** The keys `restContains` looks at, as bound. */
  restKeys(keys: string[]): unknown;
}

/** A name in double quotes (a schema, a table or an index of our own). */
export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The SQL name of the table's column at `index` (0-based among its fields). */
export const columnOf = (index: number): string => `c${index + 1}`;

/** A text column in code-point order (PostgreSQL's collation may be a language's). */
export function collated(dialect: SqlDialect, column: string, type: FieldType): string {
  return type === 'text' ? `${column}${dialect.textOrder}` : column;
}

/** A resource's table: its SQL name and its fields (column `c<i+1>` is `fields[i]`). */
export interface Table {
  name: string;
  fields: Field[];
  /**
   * How many of the fields are columns of their own; the others are keys `c<i+1>` of the JSON
   * object in column `rest` (databases cap a table's columns: SQLite at 2,000, PostgreSQL at
   * 1,600, and PostgreSQL's 8 KB row far lower).
   */
  inline: number;
}

/** The column holding a wide table's values past its inline columns. */
export const REST = 'rest';

/** The field at `index` as SQL: its column, or its value in `rest`. */
export function columnSql(
  dialect: SqlDialect,
  table: Pick<Table, 'fields' | 'inline'>,
  index: number,
): string {
  return index < table.inline
    ? columnOf(index)
    : dialect.restValue(columnOf(index), (table.fields[index] as Field).type);
}
