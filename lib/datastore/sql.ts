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
} from './contract.ts';
import { bucketRows } from './buckets-sql.ts';
import { appendRows } from './insert-sql.ts';
import type { Bucketed } from './plot.ts';
import { DATASTORE_MIGRATIONS, migrateDatastore, type Migration } from './migrations.ts';
import { searchTable, whereSql } from './search-sql.ts';
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
import { checkFields } from './values.ts';

const CATALOGUE = 'datastore_tables';

/**
 * Fields stored as columns of their own; the rest go to the JSON column. Below PostgreSQL's
 * 8 KB row (400 TOAST pointers of 18 bytes) and SQLite's expression depth of 1,000 for a `q`
 * over every text column; a CSV of a lab's machine rarely has more.
 */
export const INLINE_COLUMNS = 400;

export class SqlDatastore implements Datastore {
  private readonly client: SqlClient;
  private readonly dialect: SqlDialect;
  /** Schema-qualified names, for PostgreSQL's per-namespace schemas. */
  private readonly prefix: string;
  /** Indexes known to exist (made or found by this process). */
  private readonly indexed = new Set<string>();
  /** Fields a new table stores as columns (fewer in tests, so that every case meets `rest`). */
  private readonly inlineColumns: number;

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
  private async index(table: Table, position: number, purpose: 'order' | 'filter'): Promise<void> {
    const name = `${table.name}_${columnOf(position)}_${purpose}`;
    if (this.indexed.has(name)) return;
    const column = columnSql(this.dialect, table, position);
    const on =
      purpose === 'filter'
        ? column
        : this.dialect.indexOn(collated(this.dialect, column, (table.fields[position] as Field).type));
    await this.client.run(`CREATE INDEX IF NOT EXISTS ${quote(name)} ON ${this.table(table.name)} (${on})`);
    await this.client.run(this.dialect.analyze(this.table(name), this.table(table.name)));
    this.indexed.add(name);
  }

  private table(name: string): string {
    return `${this.prefix}${quote(name)}`;
  }

  private async find(resourceId: unknown, client = this.client): Promise<Table | undefined> {
    if (typeof resourceId !== 'string' || resourceId === '') throw invalid('a resource id', 'resource_id');
    const rows = await client.query(
      `SELECT table_name, fields, inline_columns FROM ${this.prefix}${CATALOGUE} WHERE resource_id = ${this.dialect.placeholder(1)}`,
      [resourceId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const fields = JSON.parse(String(row.fields)) as Field[];
    // Null: a table made before wide tables, every field a column.
    const inline = row.inline_columns === null ? fields.length : Number(row.inline_columns);
    return { name: String(row.table_name), fields, inline };
  }

  private async get(resourceId: unknown, client = this.client): Promise<Table> {
    const table = await this.find(resourceId, client);
    if (!table)
      throw notFound(`no datastore table for resource ${JSON.stringify(resourceId)}`, 'resource_id');
    return table;
  }

  async create(resourceId: string, fields: Field[], records: InputRecord[] = []): Promise<DatastoreInfo> {
    const checked = checkFields(fields);
    await this.client.transaction(async (client) => {
      const existing = await this.find(resourceId, client);
      if (existing) {
        if (JSON.stringify(existing.fields) !== JSON.stringify(checked)) {
          throw conflict(`resource ${JSON.stringify(resourceId)} has a table with other fields`, 'fields');
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
          `INSERT INTO ${this.prefix}${CATALOGUE} (resource_id, table_name, fields, inline_columns) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`,
          [resourceId, name, JSON.stringify(checked), inline],
        );
      }
      if (records.length > 0) await this.append(client, await this.get(resourceId, client), [records]);
    });
    return this.info(resourceId);
  }

  private append(
    client: SqlClient,
    table: Table,
    batches: AsyncIterable<RowBatch> | Iterable<RowBatch>,
  ): Promise<number> {
    return appendRows(client, this.dialect, this.table(table.name), table, batches);
  }

  async insert(resourceId: string, batches: AsyncIterable<RowBatch> | Iterable<RowBatch>): Promise<number> {
    return this.client.transaction(async (client) =>
      this.append(client, await this.get(resourceId, client), batches),
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
      return client.run(`DELETE FROM ${this.table(table.name)}${where}`, params);
    });
  }

  async info(resourceId: string): Promise<DatastoreInfo> {
    const table = await this.get(resourceId);
    const [row] = await this.client.query(`SELECT count(*) AS n FROM ${this.table(table.name)}`);
    return { resource_id: resourceId, fields: table.fields, count: Number(row?.n ?? 0) };
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
    );
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
