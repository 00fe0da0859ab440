// A CSV resource into the datastore, typed by its CSVW descriptor: the rows are read in
// stream by the descriptor's dialect (lib/csvw/descriptor-rows.ts, as /api/rdf reads them)
// and inserted in batches, so a file of any length never sits in memory; a UTF-8 file with a
// one-byte delimiter is read from its bytes, numbers without a string (import-bytes.ts). A cell its column's
// type cannot read refuses the import (nothing is kept: the insert is one transaction). A
// file past its first few MB is parsed on a second thread while this one inserts
// (import-thread.ts); a small one is read here, where a thread's start would cost more.
import type { NumberStyle } from '../csvw/column-format.ts';
import { descriptorRowBatches, type DescriptorRow } from '../csvw/descriptor-rows.ts';
import { CSV_FIELD, readError } from '../csvw/types.ts';
import type { LoadedResource } from '../loader.ts';
import { isDomainError } from '../process/errors.ts';
import type { ColumnBatch, Datastore, DatastoreInfo, Field, RowBatch, Value } from './contract.ts';
import { descriptorTable, mainTableIndex, tableCount, type DescriptorTable } from './fields.ts';
import { columnBatchesInThread } from './import-thread.ts';
import { cellReader } from './values.ts';
import { ColumnBatcher, unreadable } from './column-batcher.ts';
import { byteDelimiter, columnBatchesFromBytes } from './import-bytes.ts';

/** Bytes read before the import decides: a CSV that ends within them is parsed here. */
const ONE_THREAD_BYTES = 4 << 20;

export interface ImportOptions {
  /** Rows per batch handed to the store. */
  batchSize?: number;
  /** Told the rows read so far, after each batch (the chain's step status shows it). */
  onRows?: (rows: number) => void;
  /**
   * The CSV's number of lines, asked only of a descriptor with several tables, to keep the one
   * with the most rows (fields.ts, mainTableIndex); without it, the first table.
   */
  lines?: () => Promise<number>;
}

/** The batches as they pass, telling `onRows` the count so far. */
async function* counted(
  batches: AsyncIterable<RowBatch>,
  onRows: (rows: number) => void,
): AsyncGenerator<RowBatch> {
  let rows = 0;
  for await (const batch of batches) {
    rows += Array.isArray(batch) ? batch.length : batch.rows;
    onRows(rows);
    yield batch;
  }
}

/**
 * The rows, `batchSize` at a time, as columns of values read by their field's type. A numeric
 * column stays a Float64Array while its cells are numbers (a blank one, null, makes it a list
 * for the rest of the batch).
 */
export async function* columnBatches(
  rows: AsyncIterable<DescriptorRow[]>,
  fields: Field[],
  csvUrl: string,
  batchSize = 5000,
  styles: readonly NumberStyle[] = [],
): AsyncGenerator<ColumnBatch> {
  const width = fields.length;
  const readers = fields.map((f, i) => cellReader(f.type, styles[i] ?? null));
  const columns = new ColumnBatcher(fields, batchSize);
  for await (const chunk of rows) {
    for (const { sourceNumber, cells } of chunk) {
      for (let i = 0; i < width; i++) {
        const text = cells[i] as string;
        const value = (readers[i] as (text: string) => Value | undefined)(text);
        if (value === undefined) throw unreadable(fields, styles, i, text, sourceNumber, csvUrl);
        columns.put(i, value);
      }
      const batch = columns.endRow();
      if (batch) yield batch;
    }
  }
  const last = columns.rest();
  if (last) yield last;
}

/** The first chunks of a body up to `bytes`, and whether the body ended within them. */
async function head(
  body: AsyncIterator<Uint8Array | string>,
  bytes: number,
): Promise<{ chunks: (Uint8Array | string)[]; ended: boolean }> {
  const chunks: (Uint8Array | string)[] = [];
  let size = 0;
  while (size < bytes) {
    const next = await body.next();
    if (next.done) return { chunks, ended: true };
    chunks.push(next.value);
    size += next.value.length;
  }
  return { chunks, ended: false };
}

async function* joined<T>(first: T[], rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield* first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/** The CSV's rows in batches: read here when it is small, on a parsing thread when not. */
async function rowBatches(
  csv: LoadedResource,
  csvUrl: string,
  { dialect, fields, styles }: DescriptorTable,
  batchSize: number | undefined,
): Promise<AsyncIterable<RowBatch>> {
  const here = (resource: LoadedResource) =>
    resource.body && byteDelimiter(dialect) !== undefined
      ? columnBatchesFromBytes(resource.body, csvUrl, dialect, fields, styles, batchSize)
      : columnBatches(
          descriptorRowBatches(resource, csvUrl, dialect, fields.length),
          fields,
          csvUrl,
          batchSize,
          styles,
        );
  if (!csv.body) return here(csv);
  const body = csv.body[Symbol.asyncIterator]();
  let start: { chunks: (Uint8Array | string)[]; ended: boolean };
  try {
    start = await head(body, ONE_THREAD_BYTES);
  } catch (error) {
    throw readError(error, csvUrl, CSV_FIELD);
  }
  if (start.ended) return here({ ...csv, body: joined(start.chunks, body) });
  return columnBatchesInThread(joined(start.chunks, body), csvUrl, dialect, fields, styles, batchSize);
}

/**
 * Creates the resource's table from the descriptor's fields and fills it from the CSV.
 * An existing table of the resource is replaced (a new version of the file).
 */
export async function importCsv(
  store: Datastore,
  resourceId: string,
  descriptor: unknown,
  csv: LoadedResource,
  csvUrl: string,
  options: ImportOptions = {},
): Promise<DatastoreInfo> {
  const several = options.lines !== undefined && tableCount(descriptor) > 1;
  const table = descriptorTable(descriptor, several ? mainTableIndex(descriptor, await options.lines!()) : 0);
  try {
    await store.delete(resourceId);
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'not-found') throw error;
  }
  await store.create(resourceId, table.fields);
  try {
    const batches = await rowBatches(csv, csvUrl, table, options.batchSize);
    await store.insert(resourceId, options.onRows ? counted(batches, options.onRows) : batches);
  } catch (error) {
    await store.delete(resourceId).catch(() => undefined); // no half-made table stays behind
    throw error;
  }
  return store.info(resourceId);
}
