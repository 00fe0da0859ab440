// The embedded catalogue store: node:sqlite, one file LABLD_DATA/catalogue.sqlite, nothing to
// install. WAL mode lets readers go on while one process writes, and the busy timeout lets the
// CLI (`labld user add`) write to the database of a running instance.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { CatalogueStore } from './contract.ts';
import { migrateCatalogue } from './sql/migrations.ts';
import type { Param, Row, SqlSession } from './sql/session.ts';
import { SqlCatalogueStore } from './sql/store.ts';

export const CATALOGUE_FILE = 'catalogue.sqlite';
// How long another connection waits for the write lock (held by one transaction at a time;
// the outbox relay publishes outside any, under a lease: sql/store.ts).
const BUSY_TIMEOUT_MS = 30_000;

/**
 * One connection, shared by every caller of the process. Statements run synchronously, so two
 * never interleave; a transaction spans awaits, so while one is open the other callers wait
 * for it (`#busy`) instead of running inside it.
 */
class SqliteSession implements SqlSession {
  readonly dialect = 'sqlite';
  readonly #db: DatabaseSync;
  readonly #statements: Map<string, StatementSync>;
  readonly #lock: { busy?: Promise<void> };
  readonly #inside: boolean;

  constructor(db: DatabaseSync, statements = new Map<string, StatementSync>(), lock = {}, inside = false) {
    this.#db = db;
    this.#statements = statements;
    this.#lock = lock;
    this.#inside = inside;
  }

  /** Runs `statement` once no transaction of another caller is open. */
  async #free<T>(statement: () => T): Promise<T> {
    // No await between the last check and the statement: nothing can begin in between.
    if (!this.#inside) while (this.#lock.busy) await this.#lock.busy;
    return statement();
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }

  async all(sql: string, params: readonly Param[] = []): Promise<Row[]> {
    return this.#free(() => this.#prepare(sql).all(...params) as Row[]);
  }

  async run(sql: string, params: readonly Param[] = []): Promise<number> {
    return this.#free(() => Number(this.#prepare(sql).run(...params).changes));
  }

  async exec(sql: string): Promise<void> {
    return this.#free(() => this.#db.exec(sql));
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    if (this.#inside) return work(this);
    let release = () => {};
    await this.#free(() => {
      this.#lock.busy = new Promise<void>((resolve) => (release = resolve));
    });
    try {
      // IMMEDIATE: take the write lock now (waiting up to the busy timeout for another process),
      // rather than fail half-way when a read turns into a write.
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(new SqliteSession(this.#db, this.#statements, this.#lock, true));
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        this.#db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.#lock.busy = undefined;
      release();
    }
  }

  violation(error: unknown): 'unique' | 'foreign-key' | undefined {
    const code = (error as { errcode?: unknown } | null)?.errcode;
    // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY; SQLITE_CONSTRAINT_FOREIGNKEY.
    if (code === 2067 || code === 1555) return 'unique';
    if (code === 787) return 'foreign-key';
    return undefined;
  }

  async close(): Promise<void> {
    await this.#free(() => this.#db.isOpen && this.#db.close());
  }
}

/** Opens (creating or migrating) the catalogue in `dataDir`. */
export async function openEmbeddedCatalogue(dataDir: string): Promise<CatalogueStore> {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(join(dataDir, CATALOGUE_FILE));
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    // SQLite's own lower() folds ASCII only; PostgreSQL's folds every letter. Search must agree.
    db.function('lower', { deterministic: true }, (value) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    const session = new SqliteSession(db);
    await migrateCatalogue(session);
    return new SqlCatalogueStore(session);
  } catch (error) {
    db.close();
    throw error;
  }
}
