// Streaming CSV reading by a CSVW dialect (W3C "Model for Tabular Data", §8 Parsing Tabular
// Data): rows are split by any of the dialect's line terminators outside quotes; skipped and
// comment rows become comments; header rows give column titles. Text arrives in chunks, so a
// file is never held whole. Own tokenizer because the dialect needs several line
// terminators, multi-character delimiters, `\` escapes, the raw text of comment rows and
// per-side trimming, which general CSV parsers do not offer together.
import { maxColumns, tooWide } from '../limits.ts';
import type { Dialect } from './dialect.ts';
import { count } from '../process/counters.ts';

export interface RawRow {
  /** The row's text as read (for comment detection and skipped rows). */
  raw: string;
  cells: string[];
}

const WHITESPACE = /^[ \t]$/;

/** Where the rows come from, for the refusal of a row wider than LABLD_MAX_COLUMNS. */
export interface RowLimits {
  /** Request field named in the refusal (csv_url). */
  field: string;
  /** The file, named in the detail. */
  url: string;
  maxColumns: number;
}

/** Where `mark` next occurs in `text` from `from` on (Infinity: nowhere). */
function after(text: string, mark: string | null, from: number): number {
  const at = mark ? text.indexOf(mark, from) : -1;
  return at < 0 ? Infinity : at;
}

/** Splits text chunks into rows of cells. */
export class RowTokenizer {
  private readonly dialect: Dialect;
  private readonly delimiter: string | RegExp;
  private readonly sticky: RegExp | undefined;
  private readonly lookahead: number;
  /** Characters that may start a delimiter, terminator, quote or escape (plain-text fast path). */
  private readonly special: Uint8Array | undefined;
  /** A one-character delimiter's code: unquoted cells are then sliced whole (-1: no). */
  private readonly delimiterCode: number;
  /** Characters that start a line terminator. */
  private readonly terminatorStart = new Uint8Array(65536);
  /** Whether rows may be split whole (one-character delimiter; terminators start with \n or \r). */
  private readonly splitRows: boolean;
  /** Where the next quote, escape, `\r` and delimiter are in the text being read (-1: to be searched). */
  private nextQuote = -1;
  private nextEscape = -1;
  private nextReturn = -1;
  private nextDelimiter = -1;
  private carry = '';
  private rawCarry = '';
  private cells: string[] = [];
  private cell = '';
  private state: 'start' | 'plain' | 'quoted' | 'closed' = 'start';
  private rowOpen = false;
  private readonly limits: RowLimits | undefined;
  private readonly maxColumns: number;
  private rows = 0;

  constructor(dialect: Dialect, delimiter: string | RegExp = dialect.delimiter, limits?: RowLimits) {
    this.dialect = dialect;
    this.limits = limits;
    this.maxColumns = limits?.maxColumns ?? maxColumns();
    this.delimiter = delimiter;
    this.sticky = typeof delimiter === 'string' ? undefined : new RegExp(delimiter.source, 'uy');
    const longest = Math.max(
      typeof delimiter === 'string' ? delimiter.length : 64,
      ...dialect.lineTerminators.map((t) => t.length),
      2,
    );
    this.lookahead = longest;
    const starts = [
      ...dialect.lineTerminators.map((t) => t[0] ?? ''),
      typeof delimiter === 'string' ? (delimiter[0] ?? '') : '',
      dialect.quoteChar ?? '',
      dialect.escapeChar,
    ].filter(Boolean);
    if (typeof delimiter === 'string') {
      this.special = new Uint8Array(65536);
      for (const start of starts) this.special[start.charCodeAt(0)] = 1;
      // Surrogates are never special here: a non-BMP start character disables the fast path.
      if (starts.some((start) => start.charCodeAt(0) >= 0xd800 && start.charCodeAt(0) < 0xe000))
        this.special = undefined;
    }
    this.delimiterCode =
      this.special && typeof delimiter === 'string' && delimiter.length === 1 ? delimiter.charCodeAt(0) : -1;
    for (const terminator of dialect.lineTerminators) {
      if (terminator) this.terminatorStart[terminator.charCodeAt(0)] = 1;
    }
    this.splitRows =
      this.delimiterCode >= 0 &&
      !'\r\n'.includes(delimiter as string) &&
      dialect.lineTerminators.every((t) => t === '' || t[0] === '\n' || t[0] === '\r');
  }

  /**
   * The fastest path (most rows): a row whose text up to its `\n` (or `\r\n`) holds no quote,
   * escape or other `\r` is that text split at the delimiter. Pushes the row and returns where
   * the next one starts, or -1 for a row the cell-wise reading must take.
   */
  private wholeRow(text: string, i: number, stop: number, rows: RawRow[]): number {
    const newline = text.indexOf('\n', i);
    if (newline < 0 || newline >= stop) return -1;
    // Each mark's next place is searched once and kept until passed: one pass over the text.
    if (this.nextReturn < i) this.nextReturn = after(text, '\r', i);
    const end = this.nextReturn === newline - 1 ? newline - 1 : newline;
    if (this.nextReturn < end) return -1;
    const { quoteChar, escapeChar } = this.dialect;
    if (this.nextQuote < i) this.nextQuote = after(text, quoteChar, i);
    if (this.nextEscape < i)
      this.nextEscape = escapeChar === quoteChar ? this.nextQuote : after(text, escapeChar, i);
    if (this.nextQuote < end || this.nextEscape < end) return -1;
    const terminator = this.terminatorAt(text, end);
    if (terminator === 0 || end + terminator !== newline + 1) return -1;
    const delimiter = this.delimiter as string;
    const trim = this.dialect.trim !== 'false';
    const cells: string[] = [];
    for (let from = i; ;) {
      // A row past the limit is refused by the cell-wise reading, which names it.
      if (cells.length === this.maxColumns) return -1;
      if (this.nextDelimiter < from) this.nextDelimiter = after(text, delimiter, from);
      const at = this.nextDelimiter;
      const cell = text.slice(from, at > end ? end : at);
      cells.push(trim ? this.trimCell(cell) : cell);
      if (at > end) break;
      from = at + 1;
    }
    rows.push({ raw: text.slice(i, end), cells });
    this.rows++;
    this.rowOpen = false;
    return newline + 1;
  }

  /** Index of the next character at or after `from` that may be special, capped at `stop`. */
  private nextSpecial(text: string, from: number, stop: number): number {
    const special = this.special as Uint8Array;
    let j = from;
    while (j < stop && special[text.charCodeAt(j)] === 0) j++;
    return j;
  }

  push(chunk: string): RawRow[] {
    return this.process(this.carry + chunk, false);
  }

  end(): RawRow[] {
    const rows = this.process(this.carry, true);
    if (this.rowOpen) rows.push(this.finishRow(this.rawCarry));
    return rows;
  }

  private trimCell(value: string): string {
    const trim = this.dialect.trim;
    if (trim === 'true') return value.trim();
    if (trim === 'start') return value.trimStart();
    if (trim === 'end') return value.trimEnd();
    return value;
  }

  private finishCell(): void {
    // Refused as the row grows past the limit, not after a huge row was collected.
    if (this.cells.length >= this.maxColumns) {
      const where = `row ${this.rows + 1}${this.limits ? ` of ${this.limits.url}` : ''}`;
      throw tooWide(this.limits?.field, this.maxColumns, where);
    }
    this.cells.push(this.trimCell(this.cell));
    this.cell = '';
    this.state = 'start';
  }

  private finishRow(raw: string): RawRow {
    this.finishCell();
    const row = { raw, cells: this.cells };
    this.rows++;
    this.cells = [];
    this.rawCarry = '';
    this.rowOpen = false;
    return row;
  }

  private terminatorAt(text: string, i: number): number {
    for (const terminator of this.dialect.lineTerminators) {
      if (terminator && text.startsWith(terminator, i)) return terminator.length;
    }
    return 0;
  }

  private delimiterAt(text: string, i: number): number {
    if (typeof this.delimiter === 'string') {
      return this.delimiter && text.startsWith(this.delimiter, i) ? this.delimiter.length : 0;
    }
    const sticky = this.sticky as RegExp;
    sticky.lastIndex = i;
    const found = sticky.exec(text);
    return found && found[0].length > 0 ? found[0].length : 0;
  }

  private process(text: string, final: boolean): RawRow[] {
    const rows: RawRow[] = [];
    const { quoteChar, escapeChar, trim } = this.dialect;
    const stop = final ? text.length : text.length - this.lookahead;
    let rowStart = 0;
    let i = 0;
    const delimiterCode = this.delimiterCode;
    this.nextQuote = this.nextEscape = this.nextReturn = this.nextDelimiter = -1;
    while (i < stop) {
      if (this.splitRows && i === rowStart && this.state === 'start' && this.cells.length === 0) {
        if (this.cell === '' && this.rawCarry === '') {
          const next = this.wholeRow(text, i, stop, rows);
          if (next >= 0) {
            i = rowStart = next;
            continue;
          }
        }
      }
      this.rowOpen = true;
      if (delimiterCode >= 0 && this.state === 'start' && this.cell === '') {
        // Fast path (most cells): a cell with no quote or escape character is the text up to
        // the delimiter or terminator that ends it, taken in one slice (trimmed as any cell).
        const end = this.nextSpecial(text, i, stop);
        if (end < stop) {
          const code = text.charCodeAt(end);
          const terminator = this.terminatorStart[code] === 1 ? this.terminatorAt(text, end) : 0;
          if (terminator) {
            this.cell = text.slice(i, end);
            rows.push(this.finishRow(this.rawCarry + text.slice(rowStart, end)));
            i = end + terminator;
            rowStart = i;
            continue;
          }
          if (code === delimiterCode) {
            this.cell = text.slice(i, end);
            this.finishCell();
            i = end + 1;
            continue;
          }
        }
      }
      const char = text[i] as string;
      if (this.state === 'quoted' && char !== quoteChar && char !== escapeChar) {
        // Fast path: copy up to the next quote or escape character.
        let end = stop;
        for (const mark of [quoteChar, escapeChar]) {
          const at = mark === null ? -1 : text.indexOf(mark, i);
          if (at >= 0 && at < end) end = at;
        }
        this.cell += text.slice(i, end);
        i = end;
        continue;
      }
      if (this.state === 'plain' && this.special) {
        const end = this.nextSpecial(text, i, stop);
        if (end > i) {
          this.cell += text.slice(i, end);
          i = end;
          continue;
        }
      }
      if (this.state === 'quoted') {
        if (char === escapeChar && text[i + 1] === quoteChar && escapeChar !== quoteChar) {
          this.cell += quoteChar;
          i += 2;
        } else if (char === escapeChar && escapeChar !== quoteChar && i + 1 < text.length) {
          this.cell += text[i + 1];
          i += 2;
        } else if (char === quoteChar) {
          if (escapeChar === quoteChar && text[i + 1] === quoteChar) {
            this.cell += quoteChar;
            i += 2;
          } else {
            this.state = 'closed';
            i += 1;
          }
        } else {
          this.cell += char;
          i += 1;
        }
        continue;
      }
      const terminator = this.terminatorAt(text, i);
      if (terminator) {
        rows.push(this.finishRow(this.rawCarry + text.slice(rowStart, i)));
        i += terminator;
        rowStart = i;
        continue;
      }
      const delimiter = this.delimiterAt(text, i);
      if (delimiter) {
        this.finishCell();
        i += delimiter;
        continue;
      }
      if (this.state === 'start') {
        if (quoteChar !== null && char === quoteChar) {
          this.state = 'quoted';
          i += 1;
          continue;
        }
        // Leading blanks before a quote are not content when trimming at the start.
        if ((trim === 'true' || trim === 'start') && (char === ' ' || char === '\t')) {
          i += 1;
          continue;
        }
        this.state = 'plain';
      }
      if (this.state === 'closed') {
        // Text after a closing quote is kept (lenient), except blanks trimmed at the end.
        if (!WHITESPACE.test(char) || trim === 'false' || trim === 'start') this.cell += char;
        i += 1;
        continue;
      }
      if (char === escapeChar && escapeChar !== quoteChar && i + 1 < text.length) {
        this.cell += text[i + 1];
        i += 2;
      } else if (char === escapeChar && text[i + 1] === quoteChar) {
        this.cell += quoteChar;
        i += 2;
      } else {
        this.cell += char;
        i += 1;
      }
    }
    this.rawCarry += text.slice(rowStart, i);
    this.carry = text.slice(i);
    if (
      i === rowStart &&
      this.cells.length === 0 &&
      this.cell === '' &&
      this.state === 'start' &&
      !this.rawCarry
    )
      this.rowOpen = false;
    return rows;
  }
}

export type CsvEvent =
  | { kind: 'comment'; text: string }
  /** Once, after the header rows: titles per column (after skipped columns). */
  | { kind: 'header'; titles: string[][] }
  | { kind: 'row'; number: number; sourceNumber: number; cells: string[] };

/** The CSVW parsing algorithm over a stream of text chunks. */
export async function* csvEvents(
  chunks: AsyncIterable<string>,
  dialect: Dialect,
  delimiter?: string | RegExp,
  limits?: RowLimits,
): AsyncGenerator<CsvEvent> {
  for await (const events of csvEventBatches(chunks, dialect, delimiter, limits)) yield* events;
}

/**
 * `csvEvents` a text chunk's worth at a time: one await per chunk rather than per row, for
 * readers of many rows (the datastore's import).
 */
export async function* csvEventBatches(
  chunks: AsyncIterable<string>,
  dialect: Dialect,
  delimiter?: string | RegExp,
  limits?: RowLimits,
): AsyncGenerator<CsvEvent[]> {
  const tokenizer = new RowTokenizer(dialect, delimiter, limits);
  count('parse.csv');
  const { commentPrefix, skipRows, headerRowCount, skipColumns, skipBlankRows } = dialect;
  const titles: string[][] = [];
  let sourceNumber = 1;
  let number = 1;
  let headerDone = false;
  const isComment = (raw: string): boolean =>
    commentPrefix !== null && commentPrefix !== '' && raw.startsWith(commentPrefix);

  function handle(rows: RawRow[]): CsvEvent[] {
    const events: CsvEvent[] = [];
    for (const row of rows) {
      const index = sourceNumber - 1;
      if (index < skipRows) {
        const text = isComment(row.raw) ? row.raw.slice((commentPrefix as string).length).trim() : row.raw;
        if (text) events.push({ kind: 'comment', text });
      } else if (isComment(row.raw)) {
        events.push({ kind: 'comment', text: row.raw.slice((commentPrefix as string).length).trim() });
      } else if (index < skipRows + headerRowCount) {
        row.cells.slice(skipColumns).forEach((value, i) => {
          if (value.trim() === '') return;
          (titles[i] ??= []).push(value);
        });
      } else {
        if (!headerDone) {
          headerDone = true;
          events.push({ kind: 'header', titles });
        }
        if (!(skipBlankRows && row.cells.every((cell) => cell === ''))) {
          const cells = skipColumns === 0 ? row.cells : row.cells.slice(skipColumns);
          events.push({ kind: 'row', number: number++, sourceNumber, cells });
        }
      }
      sourceNumber += 1;
    }
    return events;
  }

  let first = true;
  for await (const chunk of chunks) {
    // A byte-order mark is not content (decoders keep it when the loader decoded the text).
    const events = handle(tokenizer.push(first ? chunk.replace(/^\uFEFF/, '') : chunk));
    if (events.length > 0) yield events;
    first = false;
  }
  const events = handle(tokenizer.end());
  if (!headerDone) events.push({ kind: 'header', titles });
  if (events.length > 0) yield events;
}
