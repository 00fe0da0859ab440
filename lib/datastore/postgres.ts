// The datastore on PostgreSQL through `pg`: rows go in by `INSERT … SELECT * FROM unnest(…)`
// with one array parameter per column, thousands of rows a statement (COPY would need
// another package, pg-copy-streams). `PgLike` is what the SQL needs of a client, so that the
// benchmark runs the same code on PGlite.
import pg from 'pg';
import { invalid, unreachable } from '../process/errors.ts';
import type { Migration } from './migrations.ts';
import type { FieldType, Value } from './contract.ts';
import type { ReadOnlyAnswer, ReadOnlyRun, Row, SqlClient, SqlDialect } from './sql-dialect.ts';
import { SqlDatastore } from './sql.ts';

const TYPES: Record<FieldType, string> = {
  text: 'text',
  numeric: 'numeric',
  float: 'double precision',
  int: 'bigint',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
};

/**
 * A column's values (as `bind` gives them) as one array literal: `{1.5,NULL,"text"}`, text
 * always quoted with `"` and `\` escaped. Written here because pg's own array serializer
 * costs about ten times as much per value, which was most of an import's time.
 */
export function arrayLiteral(values: unknown[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    if (value === null || value === undefined) literal += 'NULL';
    else if (typeof value === 'number') literal += String(value);
    else if (typeof value === 'boolean') literal += value ? 't' : 'f';
    else {
      const text = String(value);
      literal += `"${text.includes('"') || text.includes('\\') ? text.replace(/["\\]/g, '\\$&') : text}"`;
    }
  }
  return `${literal}}`;
}

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  maxParameters: 65535,
  columnType: (type) => TYPES[type],
  idColumn: '_id bigserial PRIMARY KEY',
  like: 'ILIKE',
  textOrder: ' COLLATE "C"',
  // Nulls last ascending, first descending: PostgreSQL's default, one btree index both ways.
  orderBy: (column, descending) => `${column} ${descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}`,
  indexOn: (column) => column,
  analyze: (_index, table) => `ANALYZE ${table}`,
  settle: (table) => `VACUUM ANALYZE ${table}`,
  select: (column, type) => (type === 'date' || type === 'timestamp' ? `${column}::text` : column),
  bind: (value: Value) => value,
  insert: 'arrays',
  array: arrayLiteral,
  restType: 'jsonb',
  // Dates and times stay ISO text (compared byte-wise, which is their order): a cast from text
  // to date is not immutable, so no index could be made on it.
  restValue: (key, type) =>
    type === 'text'
      ? `(rest->>'${key}')`
      : type === 'date' || type === 'timestamp'
        ? `((rest->>'${key}') COLLATE "C")`
        : `((rest->>'${key}')::${TYPES[type]})`,
  restContains: (keys, pattern) =>
    `EXISTS (SELECT 1 FROM jsonb_each_text(rest) AS e WHERE e.key = ANY(${keys}::text[]) AND e.value ILIKE ${pattern} ESCAPE '\\')`,
  restKeys: arrayLiteral,
  liveCheck: '', // statement_timeout
  unindexed: (column) => column,
};

/** Column types of a SELECT's answer, by type OID, as the contract names them (others: text). */
const OID_TYPES: Record<number, FieldType> = {
  16: 'bool',
  20: 'int',
  21: 'int',
  23: 'int',
  700: 'float',
  701: 'float',
  1700: 'numeric',
  1082: 'date',
  1114: 'timestamp',
  25: 'text',
  1043: 'text',
};

/** A user's SELECT failing: its time, a write, or the database's message about the query. */
function refusedSql(error: unknown, timeoutMs: number): Error {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '57014') return invalid(`the query took longer than ${timeoutMs} ms and was stopped`, 'sql');
  // Classes 22 (data), 42 (syntax, names, privileges), 25 (read-only transaction), 21, 0A.
  if (typeof code === 'string' && /^(22|42|25|21|0A|2F|38|39)/.test(code))
    return invalid(`the database refused the query: ${String(message)}`, 'sql');
  return unreachable(
    `the datastore's database failed${typeof code === 'string' ? ` (SQLSTATE ${code})` : ''}`,
  );
}

/** What `readOnly` needs of a connection beyond PgLike: pg's query config with array rows. */
interface ArrayQuery {
  query(config: { text: string; rowMode?: 'array'; queryMode?: 'extended' }): Promise<{
    rows: unknown[][];
    fields: { name: string; dataTypeID: number }[];
  }>;
}

/** A connection or pool as the SQL uses it: pg's and PGlite's `query` have this shape. */
export interface PgLike {
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Row[]; rowCount?: number | null; affectedRows?: number }>;
}

/**
 * The database's answer, or `unreachable` naming its SQLSTATE: every input is checked before
 * it reaches the SQL, so a failure here is the server's, and its text (which may quote the
 * connection URL or the data) is not the client's business.
 */
async function answer<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw unreachable(
      `the datastore's database failed${typeof code === 'string' ? ` (SQLSTATE ${code})` : ''}`,
    );
  }
}

/** A client over one connection (`connection`) or a pool handing out connections (`acquire`). */
export class PgClient implements SqlClient {
  private readonly connection: PgLike;
  private readonly acquire: () => Promise<{ client: PgLike; release: () => void }>;
  private readonly end: () => Promise<void>;

  constructor(
    connection: PgLike,
    acquire: () => Promise<{ client: PgLike; release: () => void }>,
    end: () => Promise<void>,
  ) {
    this.connection = connection;
    this.acquire = acquire;
    this.end = end;
  }

  async query(sql: string, params?: unknown[]): Promise<Row[]> {
    return (await answer(this.connection.query(sql, params))).rows;
  }

  async run(sql: string, params?: unknown[]): Promise<number> {
    const result = await answer(this.connection.query(sql, params));
    return Number(result.rowCount ?? result.affectedRows ?? 0);
  }

  async exec(sql: string): Promise<void> {
    await answer(this.connection.query(sql));
  }

  /**
   * In a READ ONLY transaction with a statement_timeout, through a cursor fetching one row past
   * the cap; rolled back. Tables are named by the CTEs in front (sql.ts), so `run.tables`
   * needs no check here.
   */
  async readOnly(sql: string, run: ReadOnlyRun): Promise<ReadOnlyAnswer> {
    const { client, release } = await answer(this.acquire());
    try {
      await answer(client.query('BEGIN TRANSACTION READ ONLY'));
      await answer(client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(run.timeoutMs))}`));
      const result = await (async () => {
        // The extended protocol: one statement at most, whatever the text holds.
        await (client as unknown as ArrayQuery).query({
          text: `DECLARE labld_sql NO SCROLL CURSOR FOR ${sql}`,
          queryMode: 'extended',
        });
        return (client as unknown as ArrayQuery).query({
          text: `FETCH FORWARD ${run.rowsMax + 1} FROM labld_sql`,
          rowMode: 'array',
        });
      })().catch((error: unknown) => {
        throw refusedSql(error, run.timeoutMs);
      });
      return {
        columns: result.fields.map((f) => ({ name: f.name, type: OID_TYPES[f.dataTypeID] ?? 'text' })),
        rows: result.rows,
      };
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      release();
    }
  }

  async transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T> {
    const { client, release } = await answer(this.acquire());
    const inner = new PgClient(
      client,
      async () => ({ client, release: () => {} }),
      async () => {},
    );
    try {
      await client.query('BEGIN');
      const value = await fn(inner);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      release();
    }
  }

  close(): Promise<void> {
    return this.end();
  }
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The datastore in a PostgreSQL database, its tables in `schema` (created when missing; a
 * lowercase identifier, the connections' search_path, where the migration steps write), its
 * own tables brought to `migrations`' latest step; `inlineColumns`: fields a new table stores
 * as columns (sql.ts, INLINE_COLUMNS).
 */
export async function openPostgresDatastore(
  url: string,
  schema = 'datastore',
  migrations?: readonly Migration[],
  inlineColumns?: number,
): Promise<SqlDatastore> {
  if (!SCHEMA.test(schema))
    throw invalid(`schema: a lowercase SQL identifier, not ${JSON.stringify(schema)}`, 'schema');
  const pool = new pg.Pool({ connectionString: url, max: 8, options: `-c search_path=${schema}` });
  // An idle connection the server drops is replaced by the pool; unheard, it would end the process.
  pool.on('error', () => {});
  const client = new PgClient(
    pool,
    async () => {
      const connection = await pool.connect();
      // A connection the server ends while checked out (a restart) emits 'error' on it:
      // unheard, it would end the process. It is dropped, not given back to the pool.
      let broken: Error | undefined;
      const onError = (error: Error) => (broken = error);
      connection.on('error', onError);
      return {
        client: connection,
        release: () => {
          connection.off('error', onError);
          connection.release(broken);
        },
      };
    },
    () => pool.end(),
  );
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const store = new SqlDatastore(client, postgresDialect, schema, inlineColumns);
    await store.migrate(migrations);
    return store;
  } catch (error) {
    await pool.end();
    throw error;
  }
}
