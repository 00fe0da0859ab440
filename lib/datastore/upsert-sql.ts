// datastore_upsert's three methods over a resource's table, record by record, as CKAN's:
// `insert` appends (refusing a record whose primary key is taken), `update` changes the row
// its key names (refusing a key not found), `upsert` updates it or inserts the record. A record
// names its row by the table's primary key or by `_id`; an update writes the fields the record
// gives and keeps the others. Runs inside the caller's transaction: all records or none.
import { conflict, invalid } from '../process/errors.ts';
import type { DatastoreRecord, Field, UpsertMethod } from './contract.ts';
import { appendRows } from './insert-sql.ts';
import { counter, searchTable } from './search-sql.ts';
import { columnOf, REST, type SqlClient, type SqlDialect, type Table } from './sql-dialect.ts';
import { valueOf } from './values.ts';

/** The row of the table `key` names (column: value), if any. */
async function rowOf(
  client: SqlClient,
  dialect: SqlDialect,
  table: string,
  layout: Table,
  key: Record<string, unknown>,
): Promise<DatastoreRecord | undefined> {
  const found = await searchTable(
    client,
    dialect,
    table,
    layout,
    { resource_id: '', filters: key, limit: 1, include_total: false },
    async () => {},
    counter(client),
  );
  return found.records[0];
}

/** Every column of a row, from its complete record: the inline ones, then `rest` if wide. */
function columnValues(dialect: SqlDialect, layout: Table, record: Record<string, unknown>): unknown[] {
  const values: unknown[] = [];
  const rest: Record<string, unknown> = {};
  layout.fields.forEach((field: Field, i) => {
    const value = dialect.bind(valueOf(field, record[field.id], 'records'));
    if (i < layout.inline) values.push(value);
    else if (value !== null) rest[columnOf(i)] = value;
  });
  if (layout.inline < layout.fields.length)
    values.push(Object.keys(rest).length === 0 ? null : JSON.stringify(rest));
  return values;
}

/** Which row a record names: `_id` if it gives one, else the primary key's fields (all needed). */
function keyOf(record: Record<string, unknown>, primaryKey: string[], n: number): Record<string, unknown> {
  if (record._id !== undefined && record._id !== null) return { _id: record._id };
  if (primaryKey.length === 0) throw invalid('table does not have a unique key defined', 'table');
  const missing = primaryKey.filter((id) => record[id] === undefined || record[id] === null);
  if (missing.length > 0)
    throw invalid(`record ${n}: fields "${missing.join(', ')}" are missing but needed as key`, 'key');
  return Object.fromEntries(primaryKey.map((id) => [id, record[id]]));
}

export async function upsertRows(
  client: SqlClient,
  dialect: SqlDialect,
  /** The table's name, quoted and qualified. */
  table: string,
  layout: Table,
  primaryKey: string[],
  records: unknown[],
  method: UpsertMethod,
): Promise<number> {
  const ids = new Set(layout.fields.map((f) => f.id));
  const set = [...layout.fields.slice(0, layout.inline).map((_, i) => columnOf(i))];
  if (layout.inline < layout.fields.length) set.push(REST);
  const update = `UPDATE ${table} SET ${set.map((c, i) => `${c} = ${dialect.placeholder(i + 1)}`).join(', ')} WHERE _id = ${dialect.placeholder(set.length + 1)}`;
  let n = 0;
  for (const raw of records) {
    n += 1;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw invalid(`record ${n}: an object of values by field id`, 'records');
    const record = raw as Record<string, unknown>;
    for (const id of Object.keys(record)) {
      if (id !== '_id' && !ids.has(id))
        throw invalid(`record ${n}: no field ${JSON.stringify(id)}`, 'records');
    }
    if (method === 'insert') {
      if (record._id !== undefined)
        throw invalid(`record ${n}: _id is given by the table on insert`, 'records');
      if (
        primaryKey.length > 0 &&
        (await rowOf(client, dialect, table, layout, keyOf(record, primaryKey, n)))
      )
        throw conflict(
          `record ${n}: its primary key (${primaryKey.join(', ')}) is in the table already`,
          'records',
        );
      await appendRows(client, dialect, table, layout, [[record]]);
      continue;
    }
    const key = keyOf(record, primaryKey, n);
    const existing = await rowOf(client, dialect, table, layout, key);
    if (!existing) {
      if (method === 'update' || key._id !== undefined)
        throw invalid(`record ${n}: key ${JSON.stringify(key)} not found`, 'key');
      await appendRows(client, dialect, table, layout, [[record]]);
      continue;
    }
    const merged = { ...existing, ...record };
    await client.run(update, [...columnValues(dialect, layout, merged), existing._id]);
  }
  return n;
}
