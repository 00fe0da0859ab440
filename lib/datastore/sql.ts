// The datastore on an SQL database, one code for both SQLite and PostgreSQL (what differs is
// a `SqlDialect`, sql-dialect.ts): the tables' lifecycle — the `datastore_tables` catalogue of
// each resource's table and fields, CREATE and DROP, the indexes a search asks for — with the
// rows going in by insert-sql.ts, read by search-sql.ts and bucketed by buckets-sql.ts.
// Tables and columns get names of our own (`ds_<hash>`, `c1…cN`): a header can be any
// string, and no name from a request ever reaches the SQL text. Values are parameters.
// A table wider than INLINE_COLUMNS keeps its first ones as columns and the others as keys of
// one JSON column, `rest` (sql-dialect.ts): databases cap a table's columns far below
// LABLD_MAX_COLUMNS, and a JSON value can still be sorted, filtered and indexed by expression.
import { createHash } from 'node:crypto';
import { conflict, invalid, notFound } from '../process/errors.ts';
import type {
  Datastore,
  DatastoreInfo,
  Field,
  InputRecord,
  RowBatch,
  SearchParams,
  SearchResult,
  SqlLimits,
  SqlResult,
  UpsertMethod,
  Value,
} from './contract.ts';
import type { GuardedSelect } from './sql-guard.ts';
import { upsertRows } from './upsert-sql.ts';
import { bucketRows } from './buckets-sql.ts';
import { appendRows } from './insert-sql.ts';
import type { Bucketed } from './plot.ts';
import { DATASTORE_MIGRATIONS, migrateDatastore, type Migration } from './migrations.ts';
import { counter, fromDb, searchTable, whereSql } from './search-sql.ts';
import {
  collated,
  columnOf,
  columnSql,
  quote,
  REST,
  type SqlClient,
  type SqlDialect,
  type Table,
} from './sql-dialect.ts';
import { checkFields, isNumericType } from './values.ts';
import { Totals } from './totals.ts';

const CATALOGUE = 'datastore_tables';

/** A table as the catalogue row has it, with its primary key and version (totals.ts). */
type Keyed = Table & { primaryKey: string[]; version: string | null };

/** CKAN's `primary_key`: fields of the table, each once (a list, or checked by the action). */
function checkPrimaryKey(primaryKey: string[], fields: Field[]): string[] {
  const ids = new Set(fields.map((f) => f.id));
  for (const id of primaryKey) {
    if (!ids.has(id)) throw invalid(`${JSON.stringify(id)} is not a field of the table`, 'primary_key');
  }
  if (new Set(primaryKey).size !== primaryKey.length) throw invalid('a field appears twice', 'primary_key');
  return primaryKey;
}

/**
 * Fields stored as columns of their own; the rest go to the JSON column. Below PostgreSQL's
 * 8 KB row (400 TOAST pointers of 18 bytes) and SQLite's expression depth of 1,000 for a `q`
 * over every text column; a CSV of a lab's machine rarely has more.
 */
export const INLINE_COLUMNS = 400;

/** Columns whose indexes `indexForPreview` makes: those a preview's table shows first. */
const PREVIEW_COLUMNS = 32;

export class SqlDatastore implements Datastore {
  private readonly client: SqlClient;
  private readonly dialect: SqlDialect;
  /** Schema-qualified names, for PostgreSQL's per-namespace schemas. */
  private readonly prefix: string;
  /** Indexes known to exist (made or found by this process). */
  private readonly indexed = new Set<string>();
  /** Fields a new table stores as columns (fewer in tests, so that every case meets `rest`). */
  private readonly inlineColumns: number;
  private readonly totals = new Totals();

  constructor(client: SqlClient, dialect: SqlDialect, schema?: string, inlineColumns = INLINE_COLUMNS) {
    this.client = client;
    this.dialect = dialect;
    this.prefix = schema ? `${quote(schema)}.` : '';
    this.inlineColumns = inlineColumns;
  }

  /** Brings the datastore's own tables to the latest version (run once by `open`). */
  async migrate(migrations: readonly Migration[] = DATASTORE_MIGRATIONS): Promise<void> {
    await migrateDatastore(this.client, this.dialect, migrations);
  }

  /**
   * The index of a column, made the first time a search sorts (`order`) or filters by it: a
   * page is then read off the index and a filtered total counted from it, instead of reading
   * the table. None is made at import, where one per column would cost more than the rows.
   * Statistics are refreshed so that the planner weighs it.
   */
  private async index(
    table: Table,
    position: number,
    purpose: 'order' | 'filter',
    analyze = true,
  ): Promise<void> {
    const column = columnSql(this.dialect, table, position);
    const ordered = this.dialect.indexOn(
      collated(this.dialect, column, (table.fields[position] as Field).type),
    );
    // Where the order's index is the column's own (PostgreSQL's numbers), it serves filters too.
    const as = purpose === 'filter' && ordered !== column ? 'filter' : 'order';
    const name = `${table.name}_${columnOf(position)}_${as}`;
    if (this.indexed.has(name)) return;
    const on = as === 'filter' ? column : ordered;
    await this.client.run(`CREATE INDEX IF NOT EXISTS ${quote(name)} ON ${this.table(table.name)} (${on})`);
    if (analyze) await this.client.run(this.dialect.analyze(this.table(name), this.table(table.name)));
    this.indexed.add(name);
  }

  async indexForPreview(resourceId: string): Promise<void> {
    const table = await this.get(resourceId);
    const columns = Math.min(table.fields.length, table.inline, PREVIEW_COLUMNS);
    for (let position = 0; position < columns; position++) {
      await this.index(table, position, 'order', false);
      const type = (table.fields[position] as Field).type;
      // Filtered by value: text, booleans, dates; numbers by range, read from the order's index
      // where it is the column's own (PostgreSQL), else indexed at their first filter.
      if (!isNumericType(type)) await this.index(table, position, 'filter', false);
    }
    // Statistics once, for the table and all its indexes.
    await this.client.run(this.dialect.settle(this.table(table.name)));
  }

  private table(name: string): string {
    return `${this.prefix}${quote(name)}`;
  }

  private async find(resourceId: unknown, client = this.client): Promise<Keyed | undefined> {
    if (typeof resourceId !== 'string' || resourceId === '') throw invalid('a resource id', 'resource_id');
    const rows = await client.query(
      `SELECT table_name, fields, inline_columns, primary_key, version FROM ${this.prefix}${CATALOGUE} WHERE resource_id = ${this.dialect.placeholder(1)}`,
      [resourceId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const fields = JSON.parse(String(row.fields)) as Field[];
    // Null: a table made before wide tables, every field a column.
    const inline = row.inline_columns === null ? fields.length : Number(row.inline_columns);
    const primaryKey = row.primary_key ? (JSON.parse(String(row.primary_key)) as string[]) : [];
    const version = row.version === null || row.version === undefined ? null : String(row.version);
    return { name: String(row.table_name), fields, inline, primaryKey, version };
  }

  private async get(resourceId: unknown, client = this.client): Promise<Keyed> {
    const table = await this.find(resourceId, client);
    if (!table)
      throw notFound(`no datastore table for resource ${JSON.stringify(resourceId)}`, 'resource_id');
    return table;
  }

  async create(
    resourceId: string,
    fields: Field[],
    records: InputRecord[] = [],
    primaryKey?: string[],
  ): Promise<DatastoreInfo> {
    const checked = checkFields(fields);
    const key = primaryKey === undefined ? undefined : checkPrimaryKey(primaryKey, checked);
    await this.client.transaction(async (client) => {
      const existing = await this.find(resourceId, client);
      if (existing) {
        if (JSON.stringify(existing.fields) !== JSON.stringify(checked)) {
          throw conflict(`resource ${JSON.stringify(resourceId)} has a table with other fields`, 'fields');
        }
        // Changing a table's key would need its rows checked for duplicates: refused instead.
        if (key !== undefined && JSON.stringify(key) !== JSON.stringify(existing.primaryKey)) {
          throw conflict(
            `the table's primary key is ${JSON.stringify(existing.primaryKey)}; it cannot be changed`,
            'primary_key',
          );
        }
      } else {
        const name = `ds_${createHash('sha256').update(resourceId).digest('hex').slice(0, 32)}`;
        const inline = Math.min(checked.length, this.inlineColumns);
        const columns = checked
          .slice(0, inline)
          .map((f, i) => `${columnOf(i)} ${this.dialect.columnType(f.type)}`);
        if (inline < checked.length) columns.push(`${REST} ${this.dialect.restType}`);
        await client.run(
          `CREATE TABLE ${this.table(name)} (${[this.dialect.idColumn, ...columns].join(', ')})`,
        );
        const p = (n: number) => this.dialect.placeholder(n);
        await client.run(
          `INSERT INTO ${this.prefix}${CATALOGUE} (resource_id, table_name, fields, inline_columns, primary_key, version) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
          [
            resourceId,
            name,
            JSON.stringify(checked),
            inline,
            key && key.length > 0 ? JSON.stringify(key) : null,
            // A table made again under the same name starts at another version: no total carries over.
            Math.floor(Math.random() * 2 ** 40),
          ],
        );
      }
      if (records.length === 0) return;
      const table = await this.get(resourceId, client);
      await this.upsertIn(client, table, records, 'insert');
    });
    return this.info(resourceId);
  }

  private async append(
    client: SqlClient,
    table: Table,
    batches: AsyncIterable<RowBatch> | Iterable<RowBatch>,
  ): Promise<number> {
    const rows = await appendRows(client, this.dialect, this.table(table.name), table, batches);
    await this.written(client, table);
    return rows;
  }

  /** A write of the table's rows: a new version, in the write's transaction. */
  private async written(client: SqlClient, table: Table): Promise<void> {
    await client.run(
      `UPDATE ${this.prefix}${CATALOGUE} SET version = version + 1 WHERE table_name = ${this.dialect.placeholder(1)}`,
      [table.name],
    );
  }

  async insert(resourceId: string, batches: AsyncIterable<RowBatch> | Iterable<RowBatch>): Promise<number> {
    return this.client.transaction(async (client) =>
      this.append(client, await this.get(resourceId, client), batches),
    );
  }

  private async upsertIn(
    client: SqlClient,
    table: Keyed,
    records: unknown[],
    method: UpsertMethod,
  ): Promise<number> {
    // Without a key there is nothing to check an insert against: rows go in in bulk.
    if (method === 'insert' && table.primaryKey.length === 0)
      return this.append(client, table, [records as InputRecord[]]);
    const rows = await upsertRows(
      client,
      this.dialect,
      this.table(table.name),
      table,
      table.primaryKey,
      records,
      method,
    );
    await this.written(client, table);
    return rows;
  }

  async upsert(resourceId: string, records: unknown[], method: UpsertMethod): Promise<number> {
    return this.client.transaction(async (client) =>
      this.upsertIn(client, await this.get(resourceId, client), records, method),
    );
  }

  async delete(resourceId: string, filters?: Record<string, unknown>): Promise<number> {
    return this.client.transaction(async (client) => {
      const table = await this.get(resourceId, client);
      if (filters === undefined || filters === null || Object.keys(filters).length === 0) {
        const [row] = await client.query(`SELECT count(*) AS n FROM ${this.table(table.name)}`);
        await client.run(`DROP TABLE ${this.table(table.name)}`);
        for (const index of this.indexed) if (index.startsWith(`${table.name}_`)) this.indexed.delete(index);
        await client.run(
          `DELETE FROM ${this.prefix}${CATALOGUE} WHERE resource_id = ${this.dialect.placeholder(1)}`,
          [resourceId],
        );
        return Number(row?.n ?? 0);
      }
      const params: unknown[] = [];
      const where = whereSql(this.dialect, table, filters, undefined, params);
      const rows = await client.run(`DELETE FROM ${this.table(table.name)}${where}`, params);
      await this.written(client, table);
      return rows;
    });
  }

  async info(resourceId: string): Promise<DatastoreInfo> {
    const table = await this.get(resourceId);
    const count = await this.total(table, `SELECT count(*) AS n FROM ${this.table(table.name)}`, []);
    return { resource_id: resourceId, fields: table.fields, primary_key: table.primaryKey, count };
  }

  async search(params: SearchParams): Promise<SearchResult> {
    const table = await this.get(params.resource_id);
    return searchTable(
      this.client,
      this.dialect,
      this.table(table.name),
      table,
      params,
      (position, purpose) => this.index(table, position, purpose),
      (sql, values) => this.total(table, sql, values),
    );
  }

  /** A count's answer, kept by the table's version (totals.ts). */
  private total(table: Keyed, sql: string, values: unknown[]): Promise<number> {
    return this.totals.of(table.name, table.version, sql, values, () => counter(this.client)(sql, values));
  }

  /**
   * Each resource id is a CTE of that name in front of the statement: its table with the
   * fields' ids as column names (so the statement cannot name our tables, and a wide table's
   * `rest` reads as columns). NOT MATERIALIZED: read as a view, row by row.
   */
  async sql(query: GuardedSelect, limits: SqlLimits): Promise<SqlResult> {
    const tables = await Promise.all(
      query.resourceIds.map(async (id) => ({ id, table: await this.get(id) })),
    );
    const ctes = tables.map(({ id, table }) => {
      const columns = table.fields.map(
        (f, i) => `${this.dialect.select(columnSql(this.dialect, table, i), f.type)} AS ${quote(f.id)}`,
      );
      return `${quote(id)} AS NOT MATERIALIZED (SELECT ${['_id', ...columns].join(', ')} FROM ${this.table(table.name)}${this.dialect.liveCheck})`;
    });
    const sql = ctes.length > 0 ? `WITH ${ctes.join(', ')} ${query.sql}` : query.sql;
    const answer = await this.client.readOnly(sql, {
      tables: tables.map(({ table }) => table.name),
      rowsMax: limits.rowsMax,
      timeoutMs: limits.timeoutMs,
    });
    const truncated = answer.rows.length > limits.rowsMax;
    const rows = truncated ? answer.rows.slice(0, limits.rowsMax) : answer.rows;
    // Without a declared type (an expression in SQLite), the type of the column's first value.
    const fields = answer.columns.map((c, i) => {
      const first = rows.find((r) => r[i] !== null && r[i] !== undefined)?.[i];
      const type = c.type ?? (typeof first === 'number' || typeof first === 'bigint' ? 'numeric' : 'text');
      return { id: c.name, type };
    });
    const records = rows.map((row) => {
      const record: Record<string, Value> = {};
      fields.forEach((f, i) => {
        const raw = row[i];
        record[f.id] = raw instanceof Date ? raw.toISOString() : fromDb(f.type, raw);
      });
      return record;
    });
    return { fields, records, records_truncated: truncated };
  }

  async buckets(resourceId: string, x: string, y: string, count: number): Promise<Bucketed> {
    const table = await this.get(resourceId);
    const column = (id: string, param: 'x' | 'y') => {
      const position = table.fields.findIndex((f) => f.id === id);
      if (position < 0) throw invalid(`${param}: ${JSON.stringify(id)} is not a column of this table`, param);
      return columnSql(this.dialect, table, position);
    };
    return bucketRows(this.client, this.dialect, {
      table: this.table(table.name),
      x: column(x, 'x'),
      y: column(y, 'y'),
      count,
    });
  }

  async ready(): Promise<void> {
    await this.client.query('SELECT 1 AS one');
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
