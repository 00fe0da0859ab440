// What the catalogue's SQL needs from a database, so that one implementation of the contract
// (store.ts) runs on node:sqlite and on PostgreSQL alike. The SQL is written once, with `?`
// placeholders, in the subset both dialects agree on; a session adapts the rest (PostgreSQL's
// `$n` placeholders, SQLite's single connection).

export type Param = string | number | null;
export type Row = Record<string, unknown>;

export interface SqlSession {
  readonly dialect: 'sqlite' | 'postgres';
  /** The rows of one statement. */
  all(sql: string, params?: readonly Param[]): Promise<Row[]>;
  /** One statement; how many rows it changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
  /** Several statements without parameters (a migration). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in a transaction on a session of its own; inside one, joins it. */
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  /** The constraint a driver error broke, if it is a constraint violation. */
  violation(error: unknown): 'unique' | 'foreign-key' | undefined;
  close(): Promise<void>;
}
