// The embedded datastore on node:sqlite (built into Node; chosen over PGlite by
// bench/datastore.ts, see README "Datastore"): one database file under LABLD_DATA, WAL mode.
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { FieldType, Value } from './contract.ts';
import type { Migration } from './migrations.ts';
import type { Row, SqlClient, SqlDialect } from './sql-dialect.ts';
import { SqlDatastore } from './sql.ts';
import { Checkpointer } from './checkpointer.ts';

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
  select: (column) => column,
  bind: (value: Value) => (typeof value === 'boolean' ? Number(value) : value),
  insert: 'values',
  restType: 'TEXT', // JSON text: json_extract reads it as SQL values (JSON true is 1)
  restValue: (key) => `json_extract(rest, '$.${key}')`,
  restContains: (keys, pattern) =>
    `EXISTS (SELECT 1 FROM json_each(rest) AS e WHERE e.key IN (SELECT k.value FROM json_each(${keys}) AS k) AND e.value LIKE ${pattern} ESCAPE '\\')`,
  restKeys: (keys) => JSON.stringify(keys),
};

/** node:sqlite is synchronous; the promises keep the one interface. Statements are cached. */
class SqliteClient implements SqlClient {
  private readonly db: DatabaseSync;
  private readonly checkpointer: Checkpointer | undefined;
  private readonly statements = new Map<string, StatementSync>();
  /** Writes queue behind each other: one connection has one transaction at a time. */
  private tail: Promise<unknown> = Promise.resolve();
  private inTransaction = false;

  constructor(db: DatabaseSync, checkpointer: Checkpointer | undefined) {
    this.db = db;
    this.checkpointer = checkpointer;
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
  // fewer pages and frames than with 4 KiB ones. A 64 MiB page cache keeps most of an
  // import's transaction from spilling. WAL with synchronous=NORMAL: a commit is not synced,
  // only checkpoints are, and the file stays consistent through a power cut (the last
  // commits may be lost). Not OFF, not even for an all-or-nothing import: this one file holds
  // every resource's table, and records posted through datastore_create exist nowhere else,
  // so a checkpoint cut short by a power loss must not corrupt it. ANALYZE samples
  // (analysis_limit) so that a new index's statistics take milliseconds, not a table scan.
  // Checkpoints run on a thread of their own (checkpointer.ts), not after this one's commits;
  // the log file is cut back to 64 MiB when it restarts.
  db.exec(
    'PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -65536; PRAGMA analysis_limit = 1000',
  );
  const onDisk = file !== ':memory:' && file !== '';
  if (onDisk) db.exec('PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864');
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
