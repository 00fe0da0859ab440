// Streaming CSV (RFC 4180 plus the CSVW dialect options the RML suites use): text arrives in
// chunks (CR-only line breaks made LF), complete records go out as string arrays. Lines
// without a quote character are cut with String#split (native, no per-character loop), a window
// of them at a time; only a record with quotes takes the slow path.
// Not lib/csvw's RowTokenizer: that one serves the full CSVW dialect (several terminators,
// escape characters, raw comment rows) character by character and is 2.7× slower on the
// KROWN 1M × 20 file (2.5 s vs 7.0 s measured); the RML suites need none of that.
import { LineBreaks } from '../line-breaks.ts';
import { maxColumns, tooWide } from '../limits.ts';
import { sourceError } from './errors.ts';
import { count } from '../process/counters.ts';

export interface CsvDialect {
  delimiter: string;
  quote: string;
  /** Lines starting with this are skipped (CSVW commentPrefix). */
  commentPrefix?: string;
  /** Trim spaces around unquoted cells (CSVW trim). */
  trim: boolean;
  /** Skip rows whose cells are all empty (CSVW skipBlankRows). */
  skipBlankRows: boolean;
}

/** How much text parseLines cuts into lines at once (the lines of a window are held together). */
const WINDOW = 1 << 20;

export const DEFAULT_DIALECT: CsvDialect = { delimiter: ',', quote: '"', trim: false, skipBlankRows: true };

export class CsvParser {
  private readonly dialect: CsvDialect;
  private readonly onRow: (row: string[]) => void;
  private rest = '';
  private line = 1;
  private first = true;
  /** Old-Mac CR-only files are read as if their CRs were LFs. */
  private readonly breaks = new LineBreaks();
  private readonly name: string;
  private readonly maxColumns = maxColumns();

  /** `name` says where the rows come from in errors (e.g. `the source data.csv`). */
  constructor(dialect: CsvDialect, onRow: (row: string[]) => void, name = 'the CSV') {
    this.dialect = dialect;
    this.onRow = onRow;
    this.name = name;
    count('parse.csv');
  }

  /** Parses what is complete in `text` (plus the remainder of earlier chunks). */
  push(chunk: string): void {
    const text = this.breaks.normalize(chunk);
    let input = this.rest === '' ? text : this.rest + text;
    if (this.first && input.length > 0) {
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
      this.first = false;
    }
    this.rest = input.slice(this.parse(input, false));
  }

  /** Parses the remainder; a record without a final newline ends here. */
  end(): void {
    const held = this.breaks.end();
    if (held !== '') this.push(held);
    if (this.rest !== '') this.parse(this.rest, true);
    this.rest = '';
  }

  /** Returns the offset up to which `input` was consumed. */
  private parse(input: string, final: boolean): number {
    const { quote } = this.dialect;
    // An empty quoteChar (a mapping's `csvw:quoteChar ""`) quotes nothing, as CSVW's null does:
    // looked for, it is found everywhere, and the slow path never moved on from it.
    if (quote === '') return this.parseLines(input, 0, final);
    let pos = 0;
    while (pos < input.length) {
      const quoteAt = input.indexOf(quote, pos);
      if (quoteAt < 0) return this.parseLines(input, pos, final);
      // The lines before the quote's own go in bulk; its record takes the slow path.
      const start = input.lastIndexOf('\n', quoteAt) + 1;
      if (start > pos) pos = this.parseLines(input.slice(0, start), pos, false);
      const next = this.parseQuoted(input, pos, final);
      if (next < 0) return pos;
      pos = next;
    }
    return pos;
  }

  /**
   * From `pos`, text without a quote character: each line a record, cut by String#split a
   * window at a time. A loop that found each line itself (indexOf, slice, then split) mostly
   * ran 10× slower in every parser after the first of a process: V8 deoptimized it for the new
   * parser's onRow ("wrong call target") and its code optimized again stayed slow, for a cause
   * inside V8 not found. 200K × 20 through the RML engine in one process: 0.7 s the first run,
   * 2.2–2.4 s each later one; 0.6–0.85 s every run since.
   */
  private parseLines(input: string, from: number, final: boolean): number {
    let pos = from;
    for (;;) {
      let cut = input.lastIndexOf('\n', pos + WINDOW);
      if (cut < pos) cut = input.indexOf('\n', pos + WINDOW);
      if (cut < 0) break;
      const lines = input.slice(pos, cut).split('\n');
      for (let i = 0; i < lines.length; i += 1) this.lineRecord(lines[i]!);
      pos = cut + 1;
    }
    if (!final || pos === input.length) return pos;
    this.lineRecord(input.slice(pos));
    return input.length;
  }

  /** A line without quotes as a record (a CR before its LF dropped). */
  private lineRecord(text: string): void {
    const line = text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
    this.emit(line.split(this.dialect.delimiter), false);
    this.line += 1;
  }

  /** The slow path for a record with quotes; returns -1 when the record is not complete yet. */
  private parseQuoted(input: string, start: number, final: boolean): number {
    const { delimiter, quote } = this.dialect;
    const row: string[] = [];
    let pos = start;
    let lines = 0;
    for (;;) {
      let cell = '';
      let quoted = false;
      while (input[pos] === ' ' && this.dialect.trim) pos += 1;
      if (input.startsWith(quote, pos)) {
        quoted = true;
        pos += quote.length;
        for (;;) {
          const close = input.indexOf(quote, pos);
          if (close < 0) {
            if (!final) return -1;
            throw sourceError(`CSV line ${this.line}: a quoted cell is not closed`);
          }
          cell += input.slice(pos, close);
          lines += countNewlines(input, pos, close);
          pos = close + quote.length;
          if (input.startsWith(quote, pos)) {
            cell += quote;
            pos += quote.length;
          } else {
            break;
          }
        }
      }
      let end = pos;
      while (end < input.length && !input.startsWith(delimiter, end) && input[end] !== '\n') end += 1;
      if (end === input.length && !final) return -1;
      const tail = input.slice(pos, end).replace(/\r$/, '');
      if (quoted && tail.trim() !== '') {
        throw sourceError(`CSV line ${this.line + lines}: text after the closing quote of a cell`);
      }
      row.push(quoted ? cell : this.dialect.trim ? tail.trim() : tail);
      if (end < input.length && input.startsWith(delimiter, end)) {
        pos = end + delimiter.length;
        continue;
      }
      this.emit(row, true);
      this.line += lines + 1;
      return end + 1;
    }
  }

  private emit(row: string[], quotedRow: boolean): void {
    if (row.length > this.maxColumns)
      throw tooWide(undefined, this.maxColumns, `line ${this.line} of ${this.name}`);
    const { commentPrefix, trim, skipBlankRows } = this.dialect;
    if (commentPrefix && !quotedRow && row[0]!.startsWith(commentPrefix)) return;
    if (trim && !quotedRow) for (let i = 0; i < row.length; i += 1) row[i] = row[i]!.trim();
    if (skipBlankRows && row.length === 1 && row[0] === '') return;
    this.onRow(row);
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
