// The catalogue store on PostgreSQL (LABLD_DATABASE_URL), for several labld processes sharing
// one catalogue. The SQL is the embedded store's (sql/store.ts); this file only connects.
import pg from 'pg';
import { invalid, unreachable } from '../../../process/errors.ts';
import type { CatalogueStore } from '../contract.ts';
import { migrateCatalogue } from '../sql/migrations.ts';
import type { Param, Row, SqlSession } from '../sql/session.ts';
import { SqlCatalogueStore } from '../sql/store.ts';

export interface PostgresCatalogueOptions {
  url: string;
  /** Tables in this schema (created if absent) instead of the connection's default: tests isolate in one. */
  schema?: string;
  /** Connections of the pool (default 10). */
  max?: number;
}

/** `?` placeholders (the SQL both dialects share) as PostgreSQL's `$1, $2, …`. */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

type Queryable = pg.Pool | pg.PoolClient;

class PostgresSession implements SqlSession {
  readonly dialect = 'postgres';
  readonly #db: Queryable;
  readonly #pool: pg.Pool | undefined;

  constructor(db: Queryable, pool?: pg.Pool) {
    this.#db = db;
    this.#pool = pool;
  }

  async all(sql: string, params: readonly Param[] = []): Promise<Row[]> {
    return (await this.#db.query(numbered(sql), [...params])).rows as Row[];
  }

  async run(sql: string, params: readonly Param[] = []): Promise<number> {
    return (await this.#db.query(numbered(sql), [...params])).rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await this.#db.query(sql);
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    if (!this.#pool) return work(this);
    const client = await this.#pool.connect();
    // A server that ends the connection while the transaction waits between statements (a
    // restart) emits 'error' on the checked-out client: unheard, it would end the process. The
    // next statement fails instead, and the broken connection is not given back to the pool.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      try {
        const result = await work(new PostgresSession(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // On a lost connection ROLLBACK fails too; the error to report is the work's.
        await client.query('ROLLBACK').catch((rollback: Error) => (broken ??= rollback));
        throw error;
      }
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  violation(error: unknown): 'unique' | 'foreign-key' | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '23505') return 'unique';
    if (code === '23503') return 'foreign-key';
    return undefined;
  }

  async close(): Promise<void> {
    await this.#pool?.end();
  }
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openPostgresCatalogue(options: PostgresCatalogueOptions): Promise<CatalogueStore> {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA.test(schema)) {
    throw invalid(`schema: must be a lowercase SQL identifier (got ${JSON.stringify(schema)})`, 'schema');
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // An idle connection the server drops is replaced by the pool; without a listener it would
  // crash the process.
  pool.on('error', () => {});
  const session = new PostgresSession(pool, pool);
  try {
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await migrateCatalogue(session);
  } catch (error) {
    await pool.end().catch(() => {});
    const code = (error as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|28P01|3D000)$/.test(code)
    ) {
      throw unreachable(`the catalogue database cannot be reached (${code})`, 'LABLD_DATABASE_URL');
    }
    throw error;
  }
  return new SqlCatalogueStore(session);
}
