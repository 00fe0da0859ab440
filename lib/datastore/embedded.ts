// The embedded datastore on node:sqlite (built into Node; chosen over PGlite by
// bench/datastore.ts, see README "Datastore"): one database file under LABLD_DATA, WAL mode.
import { constants, DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { invalid } from '../process/errors.ts';
import type { FieldType, Value } from './contract.ts';
import type { Migration } from './migrations.ts';
import type { ReadOnlyAnswer, ReadOnlyRun, Row, SqlClient, SqlDialect } from './sql-dialect.ts';
import { SQL_FUNCTIONS } from './sql-guard.ts';
import { SqlDatastore } from './sql.ts';
import { Checkpointer, LOG_BYTES } from './checkpointer.ts';

const TYPES: Record<FieldType, string> = {
  text: 'TEXT',
  numeric: 'REAL',
  float: 'REAL',
  int: 'INTEGER',
  bool: 'INTEGER',
  date: 'TEXT',
  timestamp: 'TEXT',
};

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  placeholder: () => '?', // node:sqlite binds numbered ones (?NNN) hundreds of times slower
  maxParameters: 32766,
  columnType: (type) => TYPES[type],
  idColumn: '_id INTEGER PRIMARY KEY',
  like: 'LIKE',
  textOrder: '', // BINARY: UTF-8 bytes, i.e. code points
  orderBy: (column, descending) =>
    descending ? `${column} IS NULL DESC, ${column} DESC` : `${column} IS NULL, ${column}`,
  indexOn: (column) => `${column} IS NULL, ${column}`,
  analyze: (index) => `ANALYZE ${index}`,
  settle: (table) => `ANALYZE ${table}`,
  select: (column) => column,
  bind: (value: Value) => (typeof value === 'boolean' ? Number(value) : value),
  insert: 'values',
  restType: 'TEXT', // JSON text: json_extract reads it as SQL values (JSON true is 1)
  restValue: (key) => `json_extract(rest, '$.${key}')`,
  restContains: (keys, pattern) =>
    `EXISTS (SELECT 1 FROM json_each(rest) AS e WHERE e.key IN (SELECT k.value FROM json_each(${keys}) AS k) AND e.value LIKE ${pattern} ESCAPE '\\')`,
  restKeys: (keys) => JSON.stringify(keys),
  liveCheck: ' WHERE labld_alive(_id)',
  unindexed: (column) => `+${column}`,
};

/**
 * Each connection's page cache in KiB; SQLite sizes a CREATE INDEX's sort memory from it too.
 * At 64 MiB a large import held 64 MiB of pages, then as much again per index's sort, and each
 * worker's connection kept its cache full afterwards; the import is as fast at 16 MiB
 * (docs/performance.md, issue 29).
 */
const CACHE_KIB = 16384;

/** A declared column type as the contract names it (our tables' types, table.ts's TYPES). */
const DECLARED: Record<string, FieldType> = { INTEGER: 'int', REAL: 'numeric', TEXT: 'text' };

/** What a user's SELECT may do, as SQLite's authorizer is asked at prepare time. */
const READING = new Set<number>([constants.SQLITE_SELECT, constants.SQLITE_READ, constants.SQLITE_FUNCTION]);
/** Functions the datastore's own CTEs call (the rest: sql-guard.ts's list). */
const OWN_FUNCTIONS = new Set(['labld_alive', 'json_extract']);

class TimeUp extends Error {}

/** node:sqlite is synchronous; the promises keep the one interface. Statements are cached. */
class SqliteClient implements SqlClient {
  private readonly db: DatabaseSync;
  private readonly checkpointer: Checkpointer | undefined;
  private readonly statements = new Map<string, StatementSync>();
  /** Writes queue behind each other: one connection has one transaction at a time. */
  private tail: Promise<unknown> = Promise.resolve();
  private inTransaction = false;
  /** When a running datastore_search_sql statement must stop (ms since the epoch). */
  private deadline = Infinity;

  constructor(db: DatabaseSync, checkpointer: Checkpointer | undefined) {
    this.db = db;
    this.checkpointer = checkpointer;
    // Called for every row of every table a user's SELECT reads (dialect.liveCheck): the
    // argument ties it to the row, so SQLite cannot hoist it out of an inner loop.
    db.function('labld_alive', { deterministic: false, varargs: true }, () => {
      if (Date.now() > this.deadline) throw new TimeUp('past its time');
      return 1;
    });
  }

  /**
   * Synchronous from start to end, so nothing else runs on the connection meanwhile: the
   * connection is query_only and an authorizer admits reading `run.tables` and calling the
   * allowed functions only — a second wall behind sql-guard.ts's parser.
   */
  async readOnly(sql: string, run: ReadOnlyRun): Promise<ReadOnlyAnswer> {
    const tables = new Set(run.tables);
    this.deadline = Date.now() + run.timeoutMs;
    this.db.exec('PRAGMA query_only = 1');
    this.db.setAuthorizer((action, first, second) => {
      const allowed =
        READING.has(action) &&
        (action !== constants.SQLITE_READ || tables.has(String(first))) &&
        (action !== constants.SQLITE_FUNCTION ||
          SQL_FUNCTIONS.has(String(second).toLowerCase()) ||
          OWN_FUNCTIONS.has(String(second).toLowerCase()));
      return allowed ? constants.SQLITE_OK : constants.SQLITE_DENY;
    });
    try {
      const statement = this.db.prepare(sql);
      statement.setReturnArrays(true);
      const columns = statement.columns().map((c) => ({
        name: c.name,
        ...(c.type && DECLARED[c.type.toUpperCase()] ? { type: DECLARED[c.type.toUpperCase()] } : {}),
      }));
      const rows: unknown[][] = [];
      for (const row of statement.iterate()) {
        rows.push(row as unknown as unknown[]);
        if (rows.length > run.rowsMax) break;
        if (Date.now() > this.deadline) throw new TimeUp('past its time');
      }
      return { columns, rows };
    } catch (error) {
      if (error instanceof TimeUp || Date.now() > this.deadline)
        throw invalid(`the query took longer than ${run.timeoutMs} ms and was stopped`, 'sql');
      throw invalid(`the database refused the query: ${(error as Error).message}`, 'sql');
    } finally {
      this.db.setAuthorizer(null);
      this.db.exec('PRAGMA query_only = 0');
      this.deadline = Infinity;
    }
  }

  /** After a write outside a transaction, or a transaction's commit. */
  private written(): void {
    if (!this.inTransaction) this.checkpointer?.committed();
  }

  private prepare(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size > 256) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.prepare(sql).all(...(params as SQLInputValue[])) as Row[];
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    const changes = Number(this.prepare(sql).run(...(params as SQLInputValue[])).changes);
    this.written();
    return changes;
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
    this.written();
  }

  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      this.inTransaction = true;
      try {
        const value = await fn(this);
        this.db.exec('COMMIT');
        this.inTransaction = false;
        this.written();
        return value;
      } catch (error) {
        this.inTransaction = false;
        this.db.exec('ROLLBACK');
        throw error;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await this.tail;
    this.statements.clear();
    await this.checkpointer?.close();
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * The datastore in a SQLite file (`:memory:` for a throw-away one), its own tables migrated;
 * `inlineColumns`: fields a new table stores as columns (sql.ts, INLINE_COLUMNS).
 */
export async function openEmbeddedDatastore(
  file: string,
  migrations?: readonly Migration[],
  inlineColumns?: number,
): Promise<SqlDatastore> {
  const db = new DatabaseSync(file);
  // 16 KiB pages (a new file's; an existing one keeps its own): a bulk import writes a fifth
  // fewer pages and frames than with 4 KiB ones. A small page cache (CACHE_KIB) costs an
  // import nothing: its rows append, so a full page spills to the log once, as its commit
  // would have written it. WAL with synchronous=NORMAL: a commit is not synced, only
  // checkpoints are, and the file stays consistent through a power cut (the last
  // commits may be lost). Not OFF, not even for an all-or-nothing import: this one file holds
  // every resource's table, and records posted through datastore_create exist nowhere else,
  // so a checkpoint cut short by a power loss must not corrupt it. ANALYZE samples
  // (analysis_limit) so that a new index's statistics take milliseconds, not a table scan.
  // Checkpoints run on a thread of their own (checkpointer.ts), not after this one's commits;
  // the log file is cut back to LOG_BYTES when it restarts, so that its size says how much was
  // written since (cut back to 64 MiB, a log once grown past LOG_BYTES asked for a checkpoint
  // after every commit).
  db.exec(
    `PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -${CACHE_KIB}; PRAGMA analysis_limit = 1000`,
  );
  const onDisk = file !== ':memory:' && file !== '';
  if (onDisk) db.exec(`PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = ${LOG_BYTES}`);
  const store = new SqlDatastore(
    new SqliteClient(db, onDisk ? new Checkpointer(file) : undefined),
    sqliteDialect,
    undefined,
    inlineColumns,
  );
  try {
    await store.migrate(migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  return store;
}
