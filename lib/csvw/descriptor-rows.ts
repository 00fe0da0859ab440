// The rows of a CSV as the original annotator's descriptor describes it: its dialect (rows
// skipped, header rows, the delimiter as a real character or the original's regex form such
// as `\t`, the encoding), read in stream; the table ends at its first blank row (as the
// original) or at a row of another width whose first cell is text (the next block of a
// multi-block export, as the annotator split it); such a row with a number first is ragged and
// refused (422, csv_url). Used by /api/rdf (descriptor-rdf.ts) and by the datastore's import.
import { invalid } from '../process/errors.ts';
import { maxColumns } from '../limits.ts';
import { csvEventBatches } from './csv-reader.ts';
import { DEFAULT_DIALECT, originalDelimiter, type Dialect } from './dialect.ts';
import { CSV_FIELD, readError, textChunks, type LoadedResource } from './types.ts';

export interface DescriptorDialect {
  skipRows: number;
  headerRowCount: number;
  /** A character or the original's regex form (`\t`, `\|`). */
  delimiter: string;
  encoding: string;
}

export interface DescriptorRow {
  /** 0-based among the data rows (the annotator's GID). */
  index: number;
  /** 1-based line of the file, for messages. */
  sourceNumber: number;
  cells: string[];
}

/** A cell that starts as a number does (`-.5`, `1,5`, ` 12`): a data row's first cell. */
const NUMBER_FIRST = /^\s*[-+]?(?:\d|[.,]\d)/;

/** Whether every cell from `from` on is empty or blanks. */
function isBlankRow(cells: readonly string[], from = 0): boolean {
  for (let i = from; i < cells.length; i++) if ((cells[i] as string).trim() !== '') return false;
  return true;
}

/** The data rows of `resource`, each with at least `width` cells (the described columns). */
export async function* descriptorRows(
  resource: LoadedResource,
  csvUrl: string,
  described: DescriptorDialect,
  width: number,
): AsyncGenerator<DescriptorRow> {
  for await (const rows of descriptorRowBatches(resource, csvUrl, described, width)) yield* rows;
}

/**
 * Characters of text tokenized at a time. A batch's rows (their cells, raw text and arrays) live
 * while the batch is written; from a whole 64 KB read they were ~1,700 rows, alive across the
 * young generation's collections at LABLD_SEMI_SPACE_MB=4, so it was copied and then promoted,
 * and the old generation's collections followed (issue 29, 10 describes of a 1 MB CSV in a worker:
 * 18–19 full collections and ~0.5 s of scavenges, from 4,096-character pieces 5–6 and ~0.15 s).
 */
export const PIECE_CHARS = 4096;

/** The text in pieces of at most `size` characters (slices of the chunks, not copies). */
async function* inPieces(chunks: AsyncIterable<string>, size: number): AsyncGenerator<string> {
  for await (const chunk of chunks) {
    if (chunk.length <= size) yield chunk;
    else for (let at = 0; at < chunk.length; at += size) yield chunk.slice(at, at + size);
  }
}

/** `descriptorRows` a piece of text's worth at a time (one await per piece, not per row). */
export async function* descriptorRowBatches(
  resource: LoadedResource,
  csvUrl: string,
  described: DescriptorDialect,
  width: number,
): AsyncGenerator<DescriptorRow[]> {
  const delimiter = originalDelimiter(described.delimiter || ',');
  const dialect: Dialect = {
    ...DEFAULT_DIALECT,
    delimiter: typeof delimiter === 'string' ? delimiter : ',',
    lineTerminators: ['\r\n', '\n', '\r'],
    skipRows: described.skipRows + described.headerRowCount,
    headerRowCount: 0,
    trim: 'false',
    encoding: described.encoding,
  };
  const limits = { field: CSV_FIELD, url: csvUrl, maxColumns: maxColumns() };
  const text = inPieces(textChunks(resource, described.encoding), PIECE_CHARS);
  const batches = csvEventBatches(text, dialect, delimiter, limits);
  let index = 0;
  try {
    for await (const events of batches) {
      const rows: DescriptorRow[] = [];
      let ended = false;
      let failure: Error | undefined;
      for (const event of events) {
        if (event.kind !== 'row') continue;
        const cells = event.cells;
        if (isBlankRow(cells)) {
          ended = true; // the table ends at its first blank row
          break;
        }
        if (cells.length < width || !isBlankRow(cells, width)) {
          // Another shape with text first is the next block of a machine export (the annotator
          // made it notes or the next table); with a number first, a ragged row of this one.
          if (!NUMBER_FIRST.test(cells[0] ?? '')) {
            ended = true;
            break;
          }
          failure = invalid(
            `${CSV_FIELD}: line ${event.sourceNumber} of ${csvUrl} has ${cells.length} fields; the descriptor describes ${width} columns`,
            CSV_FIELD,
          );
          break;
        }
        rows.push({ index: index++, sourceNumber: event.sourceNumber, cells });
      }
      // The rows before a refused one go out first, as they would one by one.
      if (rows.length > 0) yield rows;
      if (failure) throw failure;
      if (ended) return;
    }
  } catch (error) {
    // A stream that breaks off mid-way is a 422 naming csv_url too.
    throw readError(error, csvUrl, CSV_FIELD);
  }
}
