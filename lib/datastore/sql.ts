// The datastore on an SQL database, one code for both: what differs between SQLite and
// PostgreSQL (placeholders, column types, case-insensitive LIKE, byte-order collation, how a
// value is bound and read back) is a `SqlDialect`. Tables and columns get names of our own
// (`ds_<hash>`, `c1…cN`), the CSV's names live in the `datastore_tables` catalogue: a header can
// be any string, and no name from a request ever reaches the SQL text. Values are parameters.
import { createHash } from 'node:crypto';
import { conflict, invalid, notFound } from '../process/errors.ts';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type Datastore,
  type DatastoreInfo,
  type DatastoreRecord,
  type Field,
  type FieldType,
  type InputRecord,
  type SearchParams,
  type SearchResult,
  type Value,
} from './contract.ts';
import { bucketRows } from './buckets-sql.ts';
import type { Bucketed } from './plot.ts';
import { DATASTORE_MIGRATIONS, migrateDatastore, type Migration } from './migrations.ts';
import {
  checkFields,
  containsPattern,
  countOf,
  isStored,
  parseFieldList,
  parseSort,
  valueOf,
} from './values.ts';

export type Row = Record<string, unknown>;

export interface SqlClient {
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Statements without parameters (a migration step). */
  exec(sql: string): Promise<void>;
  /** `fn` on one connection inside BEGIN … COMMIT, rolled back when it throws. */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
}

/** Rows per `unnest` statement: a few MB of array text, one round trip. */
const ARRAY_ROWS = 10_000;

const CATALOGUE = 'datastore_tables';
const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const columnOf = (index: number): string => `c${index + 1}`;

interface Table {
  name: string;
  fields: Field[];
}

/** A value read back from the database as the contract has it. */
function fromDb(type: FieldType | '_id', raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case '_id':
    case 'numeric':
    case 'int':
    case 'float':
      return Number(raw);
    case 'bool':
      return raw === true || raw === 1 || raw === 1n || raw === 't';
    case 'timestamp':
      return String(raw).replace(' ', 'T');
    default:
      return String(raw);
  }
}

export class SqlDatastore implements Datastore {
  private readonly client: SqlClient;
  private readonly dialect: SqlDialect;
  /** Schema-qualified names, for PostgreSQL's per-namespace schemas. */
  private readonly prefix: string;
  /** Indexes known to exist (made or found by this process). */
  private readonly indexed = new Set<string>();

  constructor(client: SqlClient, dialect: SqlDialect, schema?: string) {
    this.client = client;
    this.dialect = dialect;
    this.prefix = schema ? `${quote(schema)}.` : '';
  }

  /** Brings the datastore's own tables to the latest version (run once by `open`). */
  async migrate(migrations: readonly Migration[] = DATASTORE_MIGRATIONS): Promise<void> {
    await migrateDatastore(this.client, this.dialect, migrations);
  }

  /** A text column in code-point order (PostgreSQL's collation may be a language's). */
  private collated(column: string, type: FieldType): string {
    return type === 'text' ? `${column}${this.dialect.textOrder}` : column;
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
    const column = columnOf(position);
    const on =
      purpose === 'filter'
        ? column
        : this.dialect.indexOn(this.collated(column, (table.fields[position] as Field).type));
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
      `SELECT table_name, fields FROM ${this.prefix}${CATALOGUE} WHERE resource_id = ${this.dialect.placeholder(1)}`,
      [resourceId],
    );
    const row = rows[0];
    return row
      ? { name: String(row.table_name), fields: JSON.parse(String(row.fields)) as Field[] }
      : undefined;
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
        const columns = checked.map((f, i) => `${columnOf(i)} ${this.dialect.columnType(f.type)}`);
        await client.run(
          `CREATE TABLE ${this.table(name)} (${[this.dialect.idColumn, ...columns].join(', ')})`,
        );
        const p = (n: number) => this.dialect.placeholder(n);
        await client.run(
          `INSERT INTO ${this.prefix}${CATALOGUE} (resource_id, table_name, fields) VALUES (${p(1)}, ${p(2)}, ${p(3)})`,
          [resourceId, name, JSON.stringify(checked)],
        );
      }
      if (records.length > 0) await this.append(client, await this.get(resourceId, client), [records]);
    });
    return this.info(resourceId);
  }

  async insert(
    resourceId: string,
    batches: AsyncIterable<InputRecord[]> | Iterable<InputRecord[]>,
  ): Promise<number> {
    return this.client.transaction(async (client) =>
      this.append(client, await this.get(resourceId, client), batches),
    );
  }

  /**
   * The rows in statements of many rows each: multi-row `VALUES` of as many rows as the
   * driver's parameter limit allows (≤ 500), or `unnest` of one array per column.
   */
  private async append(
    client: SqlClient,
    table: Table,
    batches: AsyncIterable<InputRecord[]> | Iterable<InputRecord[]>,
  ): Promise<number> {
    const { fields } = table;
    const width = fields.length;
    const ids = new Set(fields.map((f) => f.id));
    const arrays = this.dialect.insert === 'arrays';
    const perStatement = arrays
      ? ARRAY_ROWS
      : Math.max(1, Math.min(500, Math.floor(this.dialect.maxParameters / width)));
    const p = (n: number) => this.dialect.placeholder(n);
    const into = `INSERT INTO ${this.table(table.name)} (${fields.map((_, i) => columnOf(i)).join(', ')})`;
    const statements = new Map<number, string>();
    const statement = (rows: number): string => {
      let sql = statements.get(rows);
      if (!sql) {
        if (arrays) {
          const columns = fields.map((f, i) => `${p(i + 1)}::${this.dialect.columnType(f.type)}[]`);
          sql = `${into} SELECT * FROM unnest(${columns.join(', ')})`;
        } else {
          const tuples: string[] = [];
          for (let r = 0; r < rows; r++) {
            tuples.push(`(${fields.map((_, i) => p(r * width + i + 1)).join(', ')})`);
          }
          sql = `${into} VALUES ${tuples.join(', ')}`;
        }
        statements.set(rows, sql);
      }
      return sql;
    };
    const bind = this.dialect.bind;
    const types = fields.map((f) => f.type);
    const array = this.dialect.array ?? ((values: unknown[]) => values);
    // Filled in place: one flat array (values), or one array per column (arrays).
    const params: unknown[] = arrays
      ? fields.map(() => new Array(perStatement).fill(null))
      : new Array(perStatement * width).fill(null);
    let rows = 0;
    let count = 0;
    // One statement in flight while the next is made (a server parses it meanwhile); its
    // failure is seen at the next flush or at the end (the catch only keeps it from being
    // reported as unhandled should the rows fail first).
    let inflight: Promise<number> | undefined;
    const flush = async () => {
      if (rows === 0) return;
      // Copies: the arrays are refilled while the statement may still wait for the connection.
      const values = arrays
        ? params.map((column) => array((column as unknown[]).slice(0, rows)))
        : params.slice(0, rows * width);
      await inflight;
      inflight = client.run(statement(arrays ? perStatement : rows), values);
      inflight.catch(() => undefined);
      rows = 0;
    };
    // Each value goes straight to its parameter: a record that fails half-way fails the
    // whole insert (one transaction), so nothing is kept of the half written.
    const put = arrays
      ? (i: number, value: unknown) => ((params[i] as unknown[])[rows] = value)
      : (i: number, value: unknown) => (params[rows * width + i] = value);
    for await (const batch of batches) {
      if (!Array.isArray(batch)) throw invalid('records: a list of objects', 'records');
      for (const record of batch) {
        if (Array.isArray(record)) {
          if (record.length !== width) {
            throw invalid(`record ${count + 1}: ${width} values, one per field`, 'records');
          }
          for (let i = 0; i < width; i++) {
            const value = record[i];
            const type = types[i] as FieldType;
            put(i, bind(isStored(type, value) ? value : valueOf(fields[i] as Field, value, 'records')));
          }
        } else {
          if (record === null || typeof record !== 'object') {
            throw invalid(`record ${count + 1}: an object of values by field id`, 'records');
          }
          for (const key of Object.keys(record)) {
            if (!ids.has(key))
              throw invalid(`record ${count + 1}: no field ${JSON.stringify(key)}`, 'records');
          }
          for (let i = 0; i < width; i++) {
            const field = fields[i] as Field;
            put(i, bind(valueOf(field, record[field.id], 'records')));
          }
        }
        count += 1;
        if (++rows === perStatement) await flush();
      }
    }
    await flush();
    await inflight;
    return count;
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
      const where = this.where(table, filters, undefined, params);
      return client.run(`DELETE FROM ${this.table(table.name)}${where}`, params);
    });
  }

  async info(resourceId: string): Promise<DatastoreInfo> {
    const table = await this.get(resourceId);
    const [row] = await this.client.query(`SELECT count(*) AS n FROM ${this.table(table.name)}`);
    return { resource_id: resourceId, fields: table.fields, count: Number(row?.n ?? 0) };
  }

  /** ` WHERE …` for filters and q (empty when neither), its values pushed onto params. */
  private where(table: Table, filters: unknown, q: unknown, params: unknown[]): string {
    const conditions: string[] = [];
    const p = (value: unknown) => {
      params.push(value);
      return this.dialect.placeholder(params.length);
    };
    const column = (id: string, parameter: string): { sql: string; field: Field } => {
      const index = table.fields.findIndex((f) => f.id === id);
      if (id === '_id') return { sql: '_id', field: { id, type: 'int' } };
      if (index < 0) throw invalid(`no column ${JSON.stringify(id)} in this table`, parameter);
      return { sql: columnOf(index), field: table.fields[index] as Field };
    };
    if (filters !== undefined && filters !== null) {
      if (typeof filters !== 'object' || Array.isArray(filters))
        throw invalid('an object of column: value', 'filters');
      for (const [id, raw] of Object.entries(filters)) {
        const { sql, field } = column(id, 'filters');
        const values = (Array.isArray(raw) ? raw : [raw]).map((v) => {
          if (v !== null && typeof v === 'object')
            throw invalid(`column ${JSON.stringify(id)}: a value or a list of values`, 'filters');
          return valueOf(field, v, 'filters');
        });
        const present = values.filter((v) => v !== null).map((v) => p(this.dialect.bind(v)));
        const alternatives =
          present.length === 0
            ? []
            : [present.length === 1 ? `${sql} = ${present[0]}` : `${sql} IN (${present.join(', ')})`];
        if (values.includes(null)) alternatives.push(`${sql} IS NULL`);
        conditions.push(alternatives.length === 0 ? '1 = 0' : `(${alternatives.join(' OR ')})`);
      }
    }
    const words = (text: unknown, parameter: string): string[] => {
      if (typeof text !== 'string') throw invalid('text to search for', parameter);
      return text.split(/\s+/).filter(Boolean);
    };
    // One parameter per use: SQLite's plain `?` placeholders are numbered by position.
    const contains = (columns: string[], word: string) => {
      if (columns.length === 0) return '1 = 0';
      const pattern = containsPattern(word);
      return `(${columns.map((c) => `${c} ${this.dialect.like} ${p(pattern)} ESCAPE '\\'`).join(' OR ')})`;
    };
    if (typeof q === 'string') {
      const texts = table.fields.flatMap((f, i) => (f.type === 'text' ? [columnOf(i)] : []));
      for (const word of words(q, 'q')) conditions.push(contains(texts, word));
    } else if (q !== undefined && q !== null && q !== '') {
      if (typeof q !== 'object' || Array.isArray(q)) throw invalid('text, or an object of column: text', 'q');
      for (const [id, text] of Object.entries(q)) {
        const { sql, field } = column(id, 'q');
        // Numbers have no one text form both databases agree on: they are filtered, not searched.
        if (field.type !== 'text')
          throw invalid(`column ${JSON.stringify(id)} is ${field.type}: use filters`, 'q');
        for (const word of words(text, 'q')) conditions.push(contains([sql], word));
      }
    }
    return conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
  }

  async search(params: SearchParams): Promise<SearchResult> {
    const table = await this.get(params.resource_id);
    const { fields } = table;
    const known = (id: string) => id === '_id' || fields.some((f) => f.id === id);
    const limit = countOf(params.limit, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
    const offset = countOf(params.offset, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const chosen = parseFieldList(params.fields, known) ?? ['_id', ...fields.map((f) => f.id)];
    const sort = parseSort(params.sort, known);
    const values: unknown[] = [];
    const where = this.where(table, params.filters, params.q, values);
    const typeOf = (id: string): FieldType =>
      id === '_id' ? 'int' : (fields.find((f) => f.id === id) as Field).type;
    const sqlName = (id: string) => (id === '_id' ? '_id' : columnOf(fields.findIndex((f) => f.id === id)));
    const select = chosen.map(
      (id, i) => `${id === '_id' ? '_id' : this.dialect.select(sqlName(id), typeOf(id))} AS r${i}`,
    );
    // Nulls are the largest value in both databases (PostgreSQL's default); `_id` breaks ties
    // so that pages never overlap.
    // Ties are broken by `_id` in the first key's direction, so one index read backwards or
    // forwards gives the whole order and pages never overlap.
    const first = sort[0];
    if (first && first.id !== '_id')
      await this.index(
        table,
        fields.findIndex((f) => f.id === first.id),
        'order',
      );
    for (const id of Object.keys(params.filters ?? {})) {
      if (id !== '_id')
        await this.index(
          table,
          fields.findIndex((f) => f.id === id),
          'filter',
        );
    }
    const keys = sort.some((k) => k.id === '_id')
      ? sort
      : [...sort, { id: '_id', descending: first?.descending ?? false }];
    const order = keys.map(({ id, descending }) =>
      this.dialect.orderBy(this.collated(sqlName(id), typeOf(id)), descending),
    );
    const n = values.length;
    const rows = await this.client.query(
      `SELECT ${select.join(', ')} FROM ${this.table(table.name)}${where} ORDER BY ${order.join(', ')} LIMIT ${this.dialect.placeholder(n + 1)} OFFSET ${this.dialect.placeholder(n + 2)}`,
      [...values, limit, offset],
    );
    const records = rows.map((row) => {
      const record: DatastoreRecord = {};
      chosen.forEach((id, i) => (record[id] = fromDb(id === '_id' ? '_id' : typeOf(id), row[`r${i}`])));
      return record;
    });
    const result: SearchResult = {
      resource_id: params.resource_id,
      fields: chosen.map((id) => ({ id, type: typeOf(id) })),
      records,
      limit,
      offset,
    };
    if (params.include_total !== false) {
      const [row] = await this.client.query(
        `SELECT count(*) AS n FROM ${this.table(table.name)}${where}`,
        values,
      );
      result.total = Number(row?.n ?? 0);
    }
    return result;
  }

  async buckets(resourceId: string, x: string, y: string, count: number): Promise<Bucketed> {
    const table = await this.get(resourceId);
    const column = (id: string, param: 'x' | 'y') => {
      const position = table.fields.findIndex((f) => f.id === id);
      if (position < 0) throw invalid(`${param}: ${JSON.stringify(id)} is not a column of this table`, param);
      return columnOf(position);
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
