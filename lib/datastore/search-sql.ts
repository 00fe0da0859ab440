// Reading a resource's table: the WHERE of per-column filters and full-text `q` (also the
// filtered delete's), and a search's page — the columns asked for, sorted on any of them with
// `_id` breaking ties, paged, with the total counted. Every value is a parameter; column names
// are our own (`c1…cN`) looked up from the table's fields. A wide table's fields past its inline
// columns are read from its `rest` object: compared by expression, returned by reading the object.
import { invalid } from '../process/errors.ts';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type DatastoreRecord,
  type Field,
  type FieldType,
  type SearchParams,
  type SearchResult,
  type Value,
} from './contract.ts';
import {
  collated,
  columnOf,
  columnSql,
  REST,
  type SqlClient,
  type SqlDialect,
  type Table,
} from './sql-dialect.ts';
import { containsPattern, countOf, parseFieldList, parseSort, valueOf } from './values.ts';

/** What reading a table needs of it: its fields and how many are columns of their own. */
type Layout = Pick<Table, 'fields' | 'inline'>;

/** Makes the index of the column at `position` for a sort (`order`) or a filter, once. */
export type Indexer = (position: number, purpose: 'order' | 'filter') => Promise<void>;

/** The answer `n` of a count, kept while the table is unchanged (totals.ts). */
export type Counter = (sql: string, values: unknown[]) => Promise<number>;

/** A count run each time it is asked. */
export const counter =
  (client: SqlClient): Counter =>
  async (sql, values) => {
    const [row] = await client.query(sql, values);
    return Number(row?.n ?? 0);
  };

/** A value read back from the database as the contract has it. */
export function fromDb(type: FieldType | '_id', raw: unknown): Value {
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

/** A row's `rest` object: JSON text (SQLite) or already parsed (PostgreSQL's jsonb); null when empty. */
function restOf(raw: unknown): Record<string, unknown> {
  if (raw === null || raw === undefined) return {};
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
}

/** labld's range filter (CKAN has none): `{"gte": low, "lte": high}`, either bound alone. */
const RANGE_KEYS = new Set(['gte', 'lte']);

function isRange(raw: unknown): raw is Record<string, unknown> {
  return (
    raw !== null &&
    typeof raw === 'object' &&
    !Array.isArray(raw) &&
    Object.keys(raw).length > 0 &&
    Object.keys(raw).every((k) => RANGE_KEYS.has(k))
  );
}

/** `low <= column AND column <= high` on a column whose values are ordered (numbers, dates). */
function rangeSql(
  sql: string,
  field: Field,
  range: Record<string, unknown>,
  bind: (value: Value) => string,
): string {
  if (field.type === 'text' || field.type === 'bool')
    throw invalid(
      `column ${JSON.stringify(field.id)} is ${field.type}: a range needs numbers or dates`,
      'filters',
    );
  const bounds = Object.entries(range).map(([key, raw]) => {
    const value = raw === null ? null : valueOf(field, raw, 'filters');
    if (value === null) throw invalid(`column ${JSON.stringify(field.id)}: ${key} needs a value`, 'filters');
    return `${sql} ${key === 'gte' ? '>=' : '<='} ${bind(value)}`;
  });
  return `(${bounds.join(' AND ')})`;
}

/** ` WHERE …` for filters and q (empty when neither), its values pushed onto params. */
export function whereSql(
  dialect: SqlDialect,
  table: Layout,
  filters: unknown,
  q: unknown,
  params: unknown[],
  /** Filters not read by their indexes (dialect.unindexed): the page is read off the sort's. */
  bySort = false,
): string {
  const fields = table.fields;
  const conditions: string[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const column = (id: string, parameter: string): { sql: string; field: Field } => {
    const index = fields.findIndex((f) => f.id === id);
    if (id === '_id') return { sql: '_id', field: { id, type: 'int' } };
    if (index < 0) throw invalid(`no column ${JSON.stringify(id)} in this table`, parameter);
    return { sql: columnSql(dialect, table, index), field: fields[index] as Field };
  };
  if (filters !== undefined && filters !== null) {
    if (typeof filters !== 'object' || Array.isArray(filters))
      throw invalid('an object of column: value', 'filters');
    for (const [id, raw] of Object.entries(filters)) {
      const { sql: name, field } = column(id, 'filters');
      const sql = bySort ? dialect.unindexed(name) : name;
      if (isRange(raw)) {
        conditions.push(rangeSql(sql, field, raw, (v) => p(dialect.bind(v))));
        continue;
      }
      const values = (Array.isArray(raw) ? raw : [raw]).map((v) => {
        if (v !== null && typeof v === 'object')
          throw invalid(`column ${JSON.stringify(id)}: a value or a list of values`, 'filters');
        return valueOf(field, v, 'filters');
      });
      const present = values.filter((v) => v !== null).map((v) => p(dialect.bind(v)));
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
  /** The word in any of the columns, or in any of `rest`'s text keys. */
  const contains = (columns: string[], word: string, restKeys: string[] = []) => {
    const pattern = containsPattern(word);
    const anyOf = columns.map((c) => `${c} ${dialect.like} ${p(pattern)} ESCAPE '\\'`);
    if (restKeys.length > 0) anyOf.push(dialect.restContains(p(dialect.restKeys(restKeys)), p(pattern)));
    return anyOf.length === 0 ? '1 = 0' : `(${anyOf.join(' OR ')})`;
  };
  if (typeof q === 'string') {
    const texts = fields.flatMap((f, i) => (f.type === 'text' && i < table.inline ? [columnOf(i)] : []));
    const restTexts = fields.flatMap((f, i) => (f.type === 'text' && i >= table.inline ? [columnOf(i)] : []));
    for (const word of words(q, 'q')) conditions.push(contains(texts, word, restTexts));
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

export async function searchTable(
  client: SqlClient,
  dialect: SqlDialect,
  /** The table's name, quoted and qualified. */
  table: string,
  layout: Layout,
  params: SearchParams,
  index: Indexer,
  count: Counter,
): Promise<SearchResult> {
  const fields = layout.fields;
  // By id: a wide table has thousands of fields, each looked up for every chosen one.
  const positions = new Map(fields.map((f, i) => [f.id, i]));
  const positionOf = (id: string) => positions.get(id) as number;
  const known = (id: string) => id === '_id' || positions.has(id);
  const limit = countOf(params.limit, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
  const offset = countOf(params.offset, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const chosen = parseFieldList(params.fields, known) ?? ['_id', ...fields.map((f) => f.id)];
  const sort = parseSort(params.sort, known);
  const values: unknown[] = [];
  const where = whereSql(dialect, layout, params.filters, params.q, values);
  const typeOf = (id: string): FieldType => (id === '_id' ? 'int' : (fields[positionOf(id)] as Field).type);
  const sqlName = (id: string) => (id === '_id' ? '_id' : columnSql(dialect, layout, positionOf(id)));
  const distinct = params.distinct === true;
  // A distinct search compares each chosen field, so those in `rest` are read one by one.
  const inRest = (id: string) => !distinct && id !== '_id' && positionOf(id) >= layout.inline;
  // The fields in `rest` are read from the object, selected once: a select list of one
  // expression per field would pass the databases' limits (PostgreSQL: 1,664 entries).
  const select = chosen.flatMap((id, i) =>
    inRest(id) ? [] : [`${id === '_id' ? '_id' : dialect.select(sqlName(id), typeOf(id))} AS r${i}`],
  );
  const restChosen = chosen.some(inRest);
  if (restChosen) select.push(`${REST} AS rest`);
  // Nulls are the largest value in both databases (PostgreSQL's default). Ties are broken by
  // `_id` in the first key's direction, so one index read backwards or forwards gives the
  // whole order and pages never overlap.
  const first = sort[0];
  if (!distinct && first && first.id !== '_id') await index(positionOf(first.id), 'order');
  for (const id of Object.keys(params.filters ?? {})) {
    if (id !== '_id') await index(positionOf(id), 'filter');
  }
  const keys =
    distinct || sort.some((k) => k.id === '_id')
      ? sort
      : [...sort, { id: '_id', descending: first?.descending ?? false }];
  // DISTINCT rows are sorted outside, on their columns `r<i>` (PostgreSQL orders a DISTINCT only
  // by what it selects).
  const sortName = (id: string) => {
    if (!distinct) return sqlName(id);
    const i = chosen.indexOf(id);
    if (i < 0)
      throw invalid(`${JSON.stringify(id)}: a distinct search sorts only by the fields it returns`, 'sort');
    return `r${i}`;
  };
  const n = values.length;
  const from = distinct
    ? `(SELECT DISTINCT ${select.join(', ')} FROM ${table}${where}) AS d`
    : `${table}${where}`;
  const total =
    params.include_total !== false ? await count(`SELECT count(*) AS n FROM ${from}`, values) : undefined;
  // A filter matching a good part of the table: walking the sort's index and skipping the rows
  // the filter refuses reads (offset + limit) × rows / matches of them, fewer than the matches
  // that reading the filter's index and sorting them costs. SQLite's planner does not weigh the
  // LIMIT so, and takes the filter's index whenever it has one: told here, from the totals.
  let pageFrom = from;
  if (!distinct && total !== undefined && total > 0 && first && first.id !== '_id' && params.filters) {
    const rows = await count(`SELECT count(*) AS n FROM ${table}`, []);
    if (((offset + limit) * rows) / total < total) {
      const unindexed: unknown[] = [];
      pageFrom = `${table}${whereSql(dialect, layout, params.filters, params.q, unindexed, true)}`;
    }
  }
  // A page past the middle is read from the other end: the order is total (`_id` breaks ties),
  // so the last rows backwards are the same rows, and an index is walked for `limit` + the rows
  // after the page instead of all the rows before it.
  const backwards = !distinct && total !== undefined && offset > total / 2 && offset < total;
  const [from_, take] = backwards
    ? [Math.max(0, total - offset - limit), Math.min(limit, total - offset)]
    : [offset, limit];
  const order = keys.map(({ id, descending }) =>
    dialect.orderBy(collated(dialect, sortName(id), typeOf(id)), descending !== backwards),
  );
  const read = await client.query(
    `SELECT ${distinct ? '*' : select.join(', ')} FROM ${pageFrom}${order.length > 0 ? ` ORDER BY ${order.join(', ')}` : ''} LIMIT ${dialect.placeholder(n + 1)} OFFSET ${dialect.placeholder(n + 2)}`,
    [...values, take, from_],
  );
  const rows = backwards ? read.reverse() : read;
  const records = rows.map((row) => {
    const record: DatastoreRecord = {};
    const rest = restChosen ? restOf(row.rest) : {};
    chosen.forEach((id, i) => {
      const raw = inRest(id) ? rest[columnOf(positionOf(id))] : row[`r${i}`];
      record[id] = fromDb(id === '_id' ? '_id' : typeOf(id), raw);
    });
    return record;
  });
  const result: SearchResult = {
    resource_id: params.resource_id,
    fields: chosen.map((id) => ({ id, type: typeOf(id) })),
    records,
    limit,
    offset,
  };
  if (total !== undefined) result.total = total;
  return result;
}
