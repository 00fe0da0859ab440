// The import's CSV read from its bytes: a UTF-8 file with a one-byte delimiter is split into
// rows and cells where its bytes are, and a number cell is read into its column's Float64Array
// from those bytes (import-number.ts) — no string is made for it, so the millions of short-lived
// cell strings that kept the parsing thread's garbage collector busy are gone. Text cells, and
// numbers the byte reader leaves (exponents, blanks, groups, more than 15 digits), are decoded
// and read by the column's `cellReader` as before. A row whose quoting is unusual (a quote
// inside an unquoted cell, text after a closing quote) is decoded and split by the CSVW
// tokenizer. Rows, values and refusals are those of `columnBatches` over `descriptorRowBatches`
// (test/datastore/import-bytes.test.ts checks it on random files cut at random places).
import { tooWide, maxColumns } from '../limits.ts';
import { invalid } from '../process/errors.ts';
import { RowTokenizer } from '../csvw/csv-reader.ts';
import { DEFAULT_DIALECT, originalDelimiter, type Dialect } from '../csvw/dialect.ts';
import type { DescriptorDialect } from '../csvw/descriptor-rows.ts';
import type { NumberStyle } from '../csvw/column-format.ts';
import { CSV_FIELD, readError } from '../csvw/types.ts';
import type { ColumnBatch, Field, Value } from './contract.ts';
import { ColumnBatcher, unreadable } from './column-batcher.ts';
import { cellReader, isNumericType } from './values.ts';
import { decimalPoints, numberOfBytes } from './import-number.ts';

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** A cell that starts as a number does (descriptor-rows.ts: a ragged row, not the next block). */
const NUMBER_FIRST = /^\s*[-+]?(?:\d|[.,]\d)/;

/** The one-byte delimiter the bytes can be split at, or undefined when the dialect needs text. */
export function byteDelimiter(dialect: DescriptorDialect): number | undefined {
  if (!/^utf-?8$/i.test(dialect.encoding)) return undefined;
  const delimiter = originalDelimiter(dialect.delimiter || ',');
  if (typeof delimiter !== 'string' || delimiter.length !== 1) return undefined;
  const code = delimiter.charCodeAt(0);
  return code < 128 && code !== QUOTE && code !== LF && code !== CR ? code : undefined;
}

/** The rows found in one pass over the bytes; cells as byte spans into the buffer. */
class Row {
  /** Start and end of each cell's content. */
  spans = new Int32Array(256);
  /** Per cell: its quoted content has `""` to be read as `"`. */
  escaped = new Uint8Array(128);
  cells = 0;
  /** Its quoting is unusual: read by the CSVW tokenizer instead. */
  unusual = false;
  start = 0;
  end = 0;

  add(start: number, end: number, escaped: boolean, limit: number, row: number, url: string): void {
    if (this.cells >= limit) throw tooWide(CSV_FIELD, limit, `row ${row} of ${url}`);
    if (this.cells * 2 + 2 > this.spans.length) {
      const spans = new Int32Array(this.spans.length * 2);
      spans.set(this.spans);
      this.spans = spans;
      const flags = new Uint8Array(this.escaped.length * 2);
      flags.set(this.escaped);
      this.escaped = flags;
    }
    this.spans[this.cells * 2] = start;
    this.spans[this.cells * 2 + 1] = end;
    this.escaped[this.cells] = escaped ? 1 : 0;
    this.cells++;
  }
}

/**
 * Splits the row starting at `i` into `row` and returns where the next one starts; -1 when the
 * row is not whole before `end` (more bytes to come unless `final`). A quote opens a quoted
 * cell only at the cell's start; `""` inside is a quote; line ends are `\r\n`, `\n` and `\r`.
 */
function scanRow(
  buf: Uint8Array,
  i: number,
  end: number,
  final: boolean,
  delimiter: number,
  row: Row,
  limit: number,
  number: number,
  url: string,
): number {
  row.cells = 0;
  row.unusual = false;
  row.start = i;
  for (;;) {
    if (i < end && buf[i] === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const q = buf.indexOf(QUOTE, j);
        if (q < 0 || q >= end) {
          if (!final) return -1;
          row.unusual = true; // never closed: the rest of the file is this cell
          row.end = end;
          return end;
        }
        if (q + 1 >= end && !final) return -1;
        if (buf[q + 1] === QUOTE) {
          escaped = true;
          j = q + 2;
          continue;
        }
        row.add(i + 1, q, escaped, limit, number, url);
        i = q + 1;
        break;
      }
      // Text after the closing quote is kept (the tokenizer's leniency): the tokenizer reads it.
      for (let b = buf[i]; i < end && b !== delimiter && b !== LF && b !== CR; b = buf[++i])
        row.unusual = true;
    } else {
      const from = i;
      for (let b = buf[i]; i < end && b !== delimiter && b !== LF && b !== CR; b = buf[++i]) {
        if (b === QUOTE) row.unusual = true;
      }
      row.add(from, i, false, limit, number, url);
    }
    if (i >= end) {
      if (!final) return -1;
      row.end = end;
      return end;
    }
    const b = buf[i];
    if (b === delimiter) {
      i++;
      continue;
    }
    row.end = i;
    if (b === LF) return i + 1;
    if (i + 1 >= end && !final) return -1;
    return buf[i + 1] === LF ? i + 2 : i + 1;
  }
}

/**
 * The CSV's rows as column batches, read from its bytes (`byteDelimiter` must have allowed the
 * dialect): the same batches as `columnBatches(descriptorRowBatches(…))`.
 */
export async function* columnBatchesFromBytes(
  body: AsyncIterable<Uint8Array | string>,
  csvUrl: string,
  described: DescriptorDialect,
  fields: Field[],
  styles: readonly NumberStyle[] = [],
  batchSize = 5000,
): AsyncGenerator<ColumnBatch> {
  const delimiter = byteDelimiter(described) as number;
  const width = fields.length;
  const readers = fields.map((f, i) => cellReader(f.type, styles[i] ?? null));
  const numeric = fields.map((f) => isNumericType(f.type));
  const ints = fields.map((f) => f.type === 'int');
  const points = fields.map((_, i) => decimalPoints(styles[i] ?? null));
  const skip = described.skipRows + described.headerRowCount;
  const limit = maxColumns();
  const dialect: Dialect = {
    ...DEFAULT_DIALECT,
    delimiter: String.fromCharCode(delimiter),
    lineTerminators: ['\r\n', '\n', '\r'],
    skipRows: 0,
    headerRowCount: 0,
    trim: 'false',
  };
  const columns = new ColumnBatcher(fields, batchSize);
  const row = new Row();
  let buf: Buffer = Buffer.alloc(0);
  let begin = 0;
  let filled = 0;
  let number = 0;
  /** Byte-order marks still to be looked for at the start (-1: before the first chunk). */
  let marks = -1;
  /** The decoded cells of an unusual row (undefined: read from the bytes). */
  let strings: string[] | undefined;
  const text = (i: number): string => {
    if (strings) return strings[i] ?? '';
    const start = row.spans[i * 2] as number;
    const end = row.spans[i * 2 + 1] as number;
    const cell = buf.toString('utf8', start, end);
    return row.escaped[i] === 1 ? cell.replaceAll('""', '"') : cell;
  };
  const cellCount = () => (strings ? strings.length : row.cells);
  const blank = (from: number): boolean => {
    for (let i = from; i < cellCount(); i++) {
      if (!strings) {
        const start = row.spans[i * 2] as number;
        if (start === row.spans[i * 2 + 1]) continue;
        const b = buf[start] as number;
        if (b > 32 && b < 128) return false; // a printable ASCII first byte: not blank
      }
      if (text(i).trim() !== '') return false;
    }
    return true;
  };

  /** Reads the whole rows in buf[begin, filled); false when the table has ended. */
  const rows = function* (final: boolean): Generator<ColumnBatch, boolean> {
    while (marks > 0) {
      if (filled - begin < 3 && !final) return true;
      const mark = buf[begin] === 0xef && buf[begin + 1] === 0xbb && buf[begin + 2] === 0xbf;
      marks = mark ? marks - 1 : 0;
      if (mark) begin += 3;
    }
    for (;;) {
      if (begin >= filled) return true;
      const next = scanRow(buf, begin, filled, final, delimiter, row, limit, number + 1, csvUrl);
      if (next < 0) return true;
      begin = next;
      number++;
      if (number <= skip) continue;
      strings = undefined;
      if (row.unusual) {
        const tokenizer = new RowTokenizer(dialect, dialect.delimiter, {
          field: CSV_FIELD,
          url: csvUrl,
          maxColumns: limit,
        });
        const line = buf.toString('utf8', row.start, row.end);
        strings = [...tokenizer.push(line), ...tokenizer.end()][0]?.cells ?? [''];
      }
      if (blank(0)) return false; // the table ends at its first blank row
      const count = cellCount();
      if (count < width || !blank(width)) {
        // Another shape with text first is the next block of a machine export; with a number
        // first, a ragged row of this table.
        if (!NUMBER_FIRST.test(text(0))) return false;
        throw invalid(
          `${CSV_FIELD}: line ${number} of ${csvUrl} has ${count} fields; the descriptor describes ${width} columns`,
          CSV_FIELD,
        );
      }
      for (let i = 0; i < width; i++) {
        let value: Value | undefined = NaN;
        if (numeric[i] && !strings && row.escaped[i] === 0) {
          const start = row.spans[i * 2] as number;
          const end = row.spans[i * 2 + 1] as number;
          value = start === end ? null : numberOfBytes(buf, start, end, points[i], ints[i] as boolean);
        }
        if (value !== value) {
          const cell = text(i);
          value = (readers[i] as (text: string) => Value | undefined)(cell);
          if (value === undefined) throw unreadable(fields, styles, i, cell, number, csvUrl);
        }
        columns.put(i, value);
      }
      const batch = columns.endRow();
      if (batch) yield batch;
    }
  };

  const append = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    // A byte-order mark is not content (bytes: the text path's decoder and reader drop one each).
    if (marks < 0) marks = typeof chunk === 'string' ? 1 : 2;
    const rest = filled - begin;
    if (rest + bytes.length > buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(rest + bytes.length, buf.length * 2, 1 << 16));
      grown.set(buf.subarray(begin, filled));
      buf = grown;
    } else buf.copyWithin(0, begin, filled);
    buf.set(bytes, rest);
    begin = 0;
    filled = rest + bytes.length;
  };

  try {
    for await (const chunk of body) {
      append(chunk);
      if (!(yield* rows(false))) return void (yield* finish());
    }
    yield* rows(true);
  } catch (error) {
    throw readError(error, csvUrl, CSV_FIELD);
  }
  yield* finish();

  function* finish(): Generator<ColumnBatch> {
    const last = columns.rest();
    if (last) yield last;
  }
}
