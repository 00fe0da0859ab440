// Rows into a resource's table, many to a statement: multi-row `INSERT … VALUES` with a
// parameter per value (SQLite), or `INSERT … SELECT * FROM unnest(…)` with one array per
// column (PostgreSQL). Each record, or each row of a column batch, is read by its fields'
// types (values.ts) on the way in. A wide table's values past its inline columns go in as one
// JSON object per row (nulls left out), the value of its `rest` column.
import { invalid } from '../process/errors.ts';
import type { ColumnBatch, Field, FieldType, RowBatch } from './contract.ts';
import { columnOf, REST, type SqlClient, type SqlDialect, type Table } from './sql-dialect.ts';
import { isStored, valueOf } from './values.ts';

/** Rows per `unnest` statement: a few MB of array text, one round trip. */
const ARRAY_ROWS = 10_000;

/**
 * The rows in statements of many rows each: multi-row `VALUES` of as many rows as the
 * driver's parameter limit allows (≤ 500), or `unnest` of one array per column.
 */
export async function appendRows(
  client: SqlClient,
  dialect: SqlDialect,
  /** The table's name, quoted and qualified. */
  table: string,
  layout: Pick<Table, 'fields' | 'inline'>,
  batches: AsyncIterable<RowBatch> | Iterable<RowBatch>,
): Promise<number> {
  const { fields, inline } = layout;
  const width = fields.length;
  const wide = inline < width;
  /** Parameters (values) or arrays per row: the inline columns, and `rest` if there is one. */
  const slots = wide ? inline + 1 : width;
  const ids = new Set(fields.map((f) => f.id));
  const arrays = dialect.insert === 'arrays';
  const perStatement = arrays
    ? ARRAY_ROWS
    : Math.max(1, Math.min(500, Math.floor(dialect.maxParameters / slots)));
  const p = (n: number) => dialect.placeholder(n);
  const names = [...fields.slice(0, inline).map((_, i) => columnOf(i)), ...(wide ? [REST] : [])];
  const insert = `INSERT INTO ${table} (${names.join(', ')})`;
  const statements = new Map<number, string>();
  const statement = (rows: number): string => {
    let sql = statements.get(rows);
    if (!sql) {
      if (arrays) {
        const types = [...fields.slice(0, inline).map((f) => dialect.columnType(f.type))];
        if (wide) types.push(dialect.restType);
        const columns = types.map((type, i) => `${p(i + 1)}::${type}[]`);
        sql = `${insert} SELECT * FROM unnest(${columns.join(', ')})`;
      } else {
        const tuples: string[] = [];
        for (let r = 0; r < rows; r++) {
          tuples.push(`(${names.map((_, i) => p(r * slots + i + 1)).join(', ')})`);
        }
        sql = `${insert} VALUES ${tuples.join(', ')}`;
      }
      statements.set(rows, sql);
    }
    return sql;
  };
  const bind = dialect.bind;
  const types = fields.map((f) => f.type);
  const array = dialect.array ?? ((values: unknown[]) => values);
  // Filled in place: one flat array (values), or one array per column (arrays).
  const params: unknown[] = arrays
    ? names.map(() => new Array(perStatement).fill(null))
    : new Array(perStatement * slots).fill(null);
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
      : params.slice(0, rows * slots);
    await inflight;
    inflight = client.run(statement(arrays ? perStatement : rows), values);
    inflight.catch(() => undefined);
    rows = 0;
  };
  // Each value goes straight to its parameter: a record that fails half-way fails the
  // whole insert (one transaction), so nothing is kept of the half written.
  const slot = arrays
    ? (i: number, value: unknown) => ((params[i] as unknown[])[rows] = value)
    : (i: number, value: unknown) => (params[rows * slots + i] = value);
  // The row's values past the inline columns, written to `rest` when the row is complete.
  let rest: Record<string, unknown> = {};
  let restCount = 0;
  const put = wide
    ? (i: number, value: unknown) => {
        if (i < inline) slot(i, value);
        else if (value !== null) {
          rest[columnOf(i)] = value;
          restCount += 1;
        }
      }
    : slot;
  /** Ends the row (writes its `rest`); whether the statement is full. Not async: called per row. */
  const endRow = (): boolean => {
    if (wide) {
      slot(inline, restCount === 0 ? null : JSON.stringify(rest));
      rest = {};
      restCount = 0;
    }
    count += 1;
    return ++rows === perStatement;
  };

  const putValue = (i: number, value: unknown) =>
    put(
      i,
      bind(isStored(types[i] as FieldType, value) ? value : valueOf(fields[i] as Field, value, 'records')),
    );
  for await (const batch of batches) {
    if (isColumnBatch(batch)) {
      if (batch.columns.length !== width) throw invalid(`columns: ${width}, one per field`, 'records');
      const columns = batch.columns;
      for (let r = 0; r < batch.rows; r++) {
        for (let i = 0; i < width; i++) putValue(i, (columns[i] as ColumnBatch['columns'][number])[r]);
        if (endRow()) await flush();
      }
      continue;
    }
    if (!Array.isArray(batch)) throw invalid('records: a list of objects', 'records');
    for (const record of batch) {
      if (Array.isArray(record)) {
        if (record.length !== width) {
          throw invalid(`record ${count + 1}: ${width} values, one per field`, 'records');
        }
        for (let i = 0; i < width; i++) putValue(i, record[i]);
      } else {
        if (record === null || typeof record !== 'object') {
          throw invalid(`record ${count + 1}: an object of values by field id`, 'records');
        }
        for (const key of Object.keys(record)) {
          if (!ids.has(key)) throw invalid(`record ${count + 1}: no field ${JSON.stringify(key)}`, 'records');
        }
        for (let i = 0; i < width; i++) {
          const field = fields[i] as Field;
          put(i, bind(valueOf(field, record[field.id], 'records')));
        }
      }
      if (endRow()) await flush();
    }
  }
  await flush();
  await inflight;
  return count;
}

function isColumnBatch(batch: RowBatch): batch is ColumnBatch {
  return !Array.isArray(batch) && batch !== null && typeof batch === 'object' && 'columns' in batch;
}
