// A CSV resource into the datastore, typed by its CSVW descriptor: the rows are read in
// stream by the descriptor's dialect (lib/csvw/descriptor-rows.ts, as /api/rdf reads them)
// and inserted in batches, so a file of any length never sits in memory. A cell its column's
// type cannot read refuses the import (nothing is kept: the insert is one transaction).
import { descriptorRowBatches, type DescriptorRow } from '../csvw/descriptor-rows.ts';
import type { LoadedResource } from '../loader.ts';
import { invalid, isDomainError } from '../process/errors.ts';
import type { Datastore, DatastoreInfo, Field, InputRecord, Value } from './contract.ts';
import { descriptorTable } from './fields.ts';
import { cellReader } from './values.ts';

export interface ImportOptions {
  /** Rows per batch handed to the store. */
  batchSize?: number;
  /** Told the rows read so far, after each batch (the chain's step status shows it). */
  onRows?: (rows: number) => void;
}

/** The batches as they pass, telling `onRows` the count so far. */
async function* counted(
  batches: AsyncIterable<InputRecord[]>,
  onRows: (rows: number) => void,
): AsyncGenerator<InputRecord[]> {
  let rows = 0;
  for await (const batch of batches) {
    rows += batch.length;
    onRows(rows);
    yield batch;
  }
}

/** Records of the rows, `batchSize` at a time, cells read by their field's type. */
export async function* recordBatches(
  rows: AsyncIterable<DescriptorRow[]>,
  fields: Field[],
  csvUrl: string,
  batchSize = 5000,
): AsyncGenerator<InputRecord[]> {
  const width = fields.length;
  const readers = fields.map((f) => cellReader(f.type));
  let batch: InputRecord[] = [];
  for await (const chunk of rows) {
    for (const { sourceNumber, cells } of chunk) {
      const record: unknown[] = new Array(width);
      for (let i = 0; i < width; i++) {
        const text = cells[i] as string;
        const value = (readers[i] as (text: string) => Value | undefined)(text);
        if (value === undefined) {
          const field = fields[i] as Field;
          throw invalid(
            `csv_url: line ${sourceNumber} of ${csvUrl}: ${JSON.stringify(text)} in column ${JSON.stringify(field.id)} is not ${field.type}`,
            'csv_url',
          );
        }
        record[i] = value;
      }
      batch.push(record);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
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
  const table = descriptorTable(descriptor);
  try {
    await store.delete(resourceId);
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'not-found') throw error;
  }
  await store.create(resourceId, table.fields);
  const rows = descriptorRowBatches(csv, csvUrl, table.dialect, table.fields.length);
  try {
    const batches = recordBatches(rows, table.fields, csvUrl, options.batchSize);
    await store.insert(resourceId, options.onRows ? counted(batches, options.onRows) : batches);
  } catch (error) {
    await store.delete(resourceId).catch(() => undefined); // no half-made table stays behind
    throw error;
  }
  return store.info(resourceId);
}
