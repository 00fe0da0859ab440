// The rows of a CSV as the original annotator's descriptor describes it: its dialect (rows
// skipped, header rows, the delimiter as a real character or the original's regex form such
// as `\t`, the encoding), read in stream; the table ends at its first blank row (as the
// original), and a row narrower than the described columns is refused (422, csv_url). Used
// by /api/rdf (descriptor-rdf.ts) and by the datastore's import.
import { invalid } from '../process/errors.ts';
import { maxColumns } from '../limits.ts';
import { csvEvents } from './csv-reader.ts';
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
  const events = csvEvents(textChunks(resource, described.encoding), dialect, delimiter, limits);
  let index = 0;
  try {
    for await (const event of events) {
      if (event.kind !== 'row') continue;
      const cells = event.cells;
      if (isBlankRow(cells)) break; // the table ends at its first blank row
      if (cells.length < width || !isBlankRow(cells, width)) {
        throw invalid(
          `${CSV_FIELD}: line ${event.sourceNumber} of ${csvUrl} has ${cells.length} fields; the descriptor describes ${width} columns`,
          CSV_FIELD,
        );
      }
      yield { index: index++, sourceNumber: event.sourceNumber, cells };
    }
  } catch (error) {
    // A stream that breaks off mid-way is a 422 naming csv_url too.
    throw readError(error, csvUrl, CSV_FIELD);
  }
}
