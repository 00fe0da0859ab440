// Data parts → `tables[]` (research §1.6), built from a stream of lines: header rows are the
// leading all-text lines, the column formats come from the first 20 data rows typed the way
// pandas hands them over (dtype of the whole column), units from the header words.
import { scanRow } from './fast-row.ts';
import { makeId } from './names.ts';
import { ColumnStats, pandasCell } from './pandas.ts';
import { SEP_REGEX, splitPandas, splitTyped, type Sep } from './separators.ts';
import { suffixUnitOf, unitOf, type UnitRef } from './units.ts';
import { QuotedNumbers } from './quoted-numbers.ts';
import { stripChars, valueType, XSD_OF } from './value-type.ts';

const FORMAT_SAMPLE = 20;
const NOTHING = { chars: 0, lines: 0 };
const BLOCK_ROWS = 256;
/** Leading all-text lines kept as header candidates; beyond that the part has no data. */
const MAX_HEADER_LINES = 10_000;

export interface Column {
  [key: string]: unknown;
}

export interface Table {
  '@id': string;
  url: string;
  dialect: { delimiter: string; skipRows: number; headerRowCount: number; encoding: string };
  tableSchema: { columns: Column[]; primaryKey: 'GID'; aboutUrl: string };
}

// A pathological row can still exhaust the regex engine's stack; the general code takes it then.
function matches(pattern: RegExp, text: string): boolean {
  try {
    return pattern.test(text);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** A line whose every field is TEXT or BLANK: a header row (the count runs past the part). */
export function isTextLine(line: string, sep: Sep): boolean {
  return splitTyped(line, sep).every((field) => {
    const type = valueType(field).type;
    return type === 'TEXT' || type === 'BLANK';
  });
}

export class TooManyHeaderLines extends Error {}

/** Accumulates one data part line by line; `finish` gives the table or undefined (omitted). */
export class TableBuilder {
  readonly sep: Sep;
  readonly start: number;
  private partLines = 0;
  private run = 0;
  private runOpen = true;
  private readonly candidates: string[] = [];
  private headerFields: string[][] = [];
  /** The header of the block this one continues (continueFrom), when it has none. */
  private inherited: string[][] = [];
  private width = -1;
  private stats: ColumnStats[] = [];
  private readonly sample: string[][] = [];
  /** Per column of the sample: every value a quoted number (Bluehill), and how it is written. */
  private readonly quoted = new QuotedNumbers();
  private rows = 0;
  private tooWide = false;
  private fastPattern: QuietRows | null | undefined;
  private signature = '';
  private colonText = '';
  private colonAt = -1;
  private otherAt = -1;

  /** Rows one field wider than the header, by an empty last field, lose that field. */
  private readonly dropTrailingEmpty: boolean;

  constructor(sep: Sep, start: number, dropTrailingEmpty = false) {
    this.sep = sep;
    this.start = start;
    this.dropTrailingEmpty = dropTrailingEmpty;
  }

  /** Whether lines after the part's end still matter (the header run has not ended). */
  get watching(): boolean {
    return this.runOpen;
  }

  /** Header known, format sample taken: plain rows can go through scanRow. */
  get fastReady(): boolean {
    return !this.runOpen && this.rows >= FORMAT_SAMPLE && !this.tooWide && this.stats.length > 0;
  }

  /**
   * A row via the hot path; false when the row is not plainly the part's (use addPartLine).
   * First a per-part regex (native code) that matches only rows which continue the part and
   * cannot change any column's dtype; failing that, scanRow; the regex is rebuilt whenever a
   * column's state changes (at most a few times per column).
   */
  fastRow(line: string, count: number): boolean {
    if (this.fastPattern === undefined)
      this.fastPattern = quietRowPattern(this.sep, count, this.width, this.stats);
    const quiet = this.fastPattern;
    if (quiet && matches(line.indexOf(':') < 0 ? quiet.plain : quiet.colons, line)) {
      this.partLines++;
      this.rows++;
      return true;
    }
    const result = scanRow(line, this.sep, count, this.stats);
    if (result === false) return false;
    if (result === 'too-wide') this.tooWide = true;
    this.partLines++;
    this.rows++;
    const signature = columnSignature(this.stats);
    if (signature !== this.signature) [this.signature, this.fastPattern] = [signature, undefined];
    return true;
  }

  /**
   * Quiet rows of `text` from `from` on, consumed in one native regex run (no line strings):
   * the number of characters and lines taken, 0 when the next row needs a closer look.
   */
  quietBlock(text: string, from: number, count: number): { chars: number; lines: number } {
    if (this.fastPattern === undefined)
      this.fastPattern = quietRowPattern(this.sep, count, this.width, this.stats);
    const quiet = this.fastPattern;
    if (!quiet) return NOTHING;
    // Whether a colon lies ahead, remembered per chunk (rescanning would be quadratic).
    if (text !== this.colonText || (this.colonAt >= 0 && this.colonAt < from)) {
      this.colonText = text;
      this.colonAt = text.indexOf(':', from);
      this.otherAt = quiet.others ? firstAt(quiet.others, text, from) : 0;
    } else if (this.otherAt >= 0 && this.otherAt < from && quiet.others) {
      this.otherAt = firstAt(quiet.others, text, from);
    }
    const block =
      this.otherAt < 0 ? quiet.leanBlock : this.colonAt < 0 ? quiet.plainBlock : quiet.colonsBlock;
    let end = from;
    for (;;) {
      block.lastIndex = end;
      if (!matches(block, text)) break;
      end = block.lastIndex;
    }
    if (end === from) return NOTHING;
    let lines = 0;
    for (let at = text.indexOf('\n', from); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) lines++;
    this.partLines += lines;
    this.rows += lines;
    return { chars: end - from, lines };
  }

  addPartLine(line: string): void {
    this.partLines++;
    if (!this.runOpen) return this.addRow(line);
    if (isTextLine(line, this.sep)) {
      this.run++;
      if (this.candidates.length >= MAX_HEADER_LINES) throw new TooManyHeaderLines();
      this.candidates.push(line);
      return;
    }
    this.closeRun();
    this.addRow(line);
  }

  /** A line after the part's end, seen while the header run is still open. */
  observeAfter(line: string): void {
    if (!this.runOpen) return;
    if (isTextLine(line, this.sep)) this.run++;
    else this.runOpen = false;
  }

  private closeRun(): void {
    this.runOpen = false;
    this.headerFields = this.candidates.map((line) => splitPandas(line, this.sep));
    this.width = Math.max(0, ...this.headerFields.map((fields) => fields.length));
  }

  private addRow(line: string): void {
    const fields = splitPandas(line, this.sep);
    if (this.dropTrailingEmpty && fields.length === this.width + 1 && fields[this.width] === '') fields.pop();
    if (this.width < 0 || (this.headerFields.length === 0 && this.rows === 0)) this.width = fields.length;
    if (this.stats.length === 0) this.stats = Array.from({ length: this.width }, () => new ColumnStats());
    // pandas refuses a row longer than the header ("Expected n fields"); the table is dropped.
    if (fields.length > this.width) this.tooWide = true;
    if (this.rows < FORMAT_SAMPLE) {
      this.sample.push(fields);
      this.quoted.add(line, this.sep, this.width);
    }
    this.rows++;
    const stats = this.stats;
    for (let col = 0; col < stats.length; col++) (stats[col] as ColumnStats).add(fields[col]);
  }

  /** Header row count, once known (0 when the text run reached the end of the file). */
  finish(context: { namespace: string; key: string; url: string; encoding: string }): Table | undefined {
    let headerRows = this.run;
    if (this.runOpen) {
      // The original counted header rows only up to a non-text line; with none before the
      // end of the file it read the whole part as data without a header.
      headerRows = 0;
      this.runOpen = false;
      this.width = -1;
      for (const line of this.candidates) this.addRow(line);
    } else if (headerRows >= this.partLines) return undefined; // no data rows: pandas gave an empty frame
    if (this.tooWide || this.rows === 0 || this.width <= 0) return undefined;
    const about = `${context.namespace}${context.key}`;
    return {
      '@id': about,
      url: context.url,
      dialect: {
        delimiter: this.sep === ':' ? SEP_REGEX[':'] : this.sep,
        skipRows: this.start,
        headerRowCount: headerRows,
        encoding: context.encoding,
      },
      tableSchema: {
        columns: [gidColumn(about), ...this.columns(headerRows, about)],
        primaryKey: 'GID',
        aboutUrl: `${about}-gid-{GID}`,
      },
    };
  }

  /**
   * Takes the header of `previous` when this table has none of its own and as many columns:
   * the second block of an export that prints its header once.
   */
  continueFrom(previous: TableBuilder): void {
    const headed = previous.run > 0 && !previous.runOpen && previous.headerFields.length > 0;
    if (headed && this.run === 0 && !this.runOpen && previous.width === this.width) {
      this.inherited = previous.headerFields;
    }
  }

  private columns(headerRows: number, about: string): Column[] {
    const titles = columnTitles(headerRows > 0 ? this.headerFields : this.inherited, this.width);
    return titles.map((columnTitles, col) => {
      const name = makeId(columnTitles[0] as string);
      const unit = columnUnit(columnTitles);
      const dtype = (this.stats[col] as ColumnStats).dtype();
      const types = this.sample.map((row) => pandasCell(row[col], dtype).typed.type);
      const same = types.every((t) => t === types[0]);
      // BLANK has no xsd type; the original wrote a null @id there. A decimal-comma column
      // (text to pandas) with a whole number among its decimals (`1` after `0,93`) is still a
      // column of numbers, where the original gave up on it as text.
      const numbers = !same && types.every((t) => t === 'INT' || t === 'FLOAT');
      const format = numbers
        ? XSD_OF.FLOAT
        : same && types[0] !== 'BLANK'
          ? XSD_OF[types[0] ?? 'TEXT']
          : XSD_OF.TEXT;
      return {
        titles: [...columnTitles, name],
        '@id': `${about}-${name}`,
        name,
        ...(unit ? { 'qudt:unit': { ...unit } } : {}),
        '@type': ['Column'],
        format: { '@id': format },
        // Values such as `"0,27211"`: a CSVW number format says how they are read.
        ...(format === XSD_OF.FLOAT ? this.quoted.datatype(col) : {}),
      };
    });
  }
}

// What a row must look like to leave every column's dtype as it is, per column state.
type ColumnState = 'settled' | 'float' | 'int' | 'open';

function columnState(stats: ColumnStats): ColumnState {
  if (stats.settled) return 'settled';
  if (stats.nonNumeric > 0) return 'open';
  return stats.floats > 0 || stats.na > 0 ? 'float' : 'int';
}

function columnSignature(stats: ColumnStats[]): string {
  return stats.map((s) => columnState(s)[0]).join('');
}

const NUMBER = '[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?';

interface QuietRows {
  /** One row (anchored). */
  plain: RegExp;
  colons: RegExp;
  /** Sticky: as many whole rows as match from lastIndex (line breaks included). */
  plainBlock: RegExp;
  colonsBlock: RegExp;
  /**
   * Where none of `others` (quote, CR and the separators but the part's own) lies ahead in the
   * text, plainBlock is the same as this block, whose field class is short (about a third
   * faster in V8). Null for the colon separator.
   */
  others: RegExp | null;
  leanBlock: RegExp;
}

/** Index of the first match of global `pattern` in `text` from `from`, else -1. */
function firstAt(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/**
 * The regex for rows that change nothing: exactly the part's separator count, no other
 * separator that could win, no quotes, at most one comma per field (German decimals), and
 * per column: anything (object dtype, settled), a number or nothing (float64), an integer.
 */
function quietRowPattern(sep: Sep, count: number, width: number, stats: ColumnStats[]): QuietRows | null {
  if (width !== count + 1 || stats.length !== width) return null;
  const states = stats.map(columnState);
  if (states.includes('open')) return null;
  const escaped = sep === '\t' ? '\\t' : sep === '|' ? '\\|' : sep;
  const row = (char: string): string => {
    const any = sep === ',' ? `${char}*` : `${char}*(?:,${char}*)?`;
    const fields = states.map((state) =>
      state === 'settled' ? any : state === 'float' ? `(?: *${NUMBER} *)?` : ` *[+-]?\\d+ *`,
    );
    // pandas strips rows read with a regex separator: no whitespace at either end then.
    const stripped = sep === '\t' || sep === '|';
    const head = stripped ? '(?![\\s\\x1c-\\x1f\\x85])' : '';
    const tail = stripped ? '(?<![\\s\\x1c-\\x1f\\x85])' : '';
    return `${head}${fields.join(escaped)}${tail}`;
  };
  // A colon counts as a separator only before whitespace; text without any colon (most) gets
  // the simpler, faster pattern.
  const plain = row('[^;|\\t:",\\r\\n]');
  const lean = sep === ':' ? null : row(`[^${escaped},\\n]`);
  // What a field of plainBlock may not hold besides the separator, comma and line feed.
  const others = ['\t', '|', ';', ':', '"', '\r'].filter((c) => c !== sep);
  const colons = row('(?:[^;|\\t:",\\r\\n]|:(?![:\\s]))');
  return {
    plain: new RegExp(`^${plain}\\r?\\n?$`),
    colons: new RegExp(`^${colons}\\r?\\n?$`),
    // At most BLOCK_ROWS rows per run: an unbounded `+` overflows the regex stack on big chunks.
    plainBlock: new RegExp(`(?:${plain}\\r?\\n){1,${BLOCK_ROWS}}`, 'y'),
    colonsBlock: new RegExp(`(?:${colons}\\r?\\n){1,${BLOCK_ROWS}}`, 'y'),
    others: lean === null ? null : new RegExp(`[${others.join('')}]`, 'g'),
    leanBlock: new RegExp(`(?:${lean ?? plain}\\n){1,${BLOCK_ROWS}}`, 'y'),
  };
}

function gidColumn(about: string): Column {
  return {
    '@id': `${about}-GID`,
    name: 'GID',
    titles: ['GID', 'Generic Identifier'],
    datatype: 'string',
    required: true,
    suppressOutput: true,
    '@type': 'Column',
  };
}

/** pandas' column labels: `Unnamed: i` (`_level_l` with several header rows), `.1` dedup. */
function columnTitles(headerFields: string[][], width: number): string[][] {
  if (headerFields.length === 0) return Array.from({ length: width }, (_, i) => [String(i)]);
  const multi = headerFields.length > 1;
  const labels = Array.from({ length: width }, (_, i) =>
    headerFields.map((fields, level) => {
      const cell = fields[i] ?? '';
      return cell !== '' ? cell : multi ? `Unnamed: ${i}_level_${level}` : `Unnamed: ${i}`;
    }),
  );
  const counts = new Map<string, number>();
  const key = (label: string[]): string => JSON.stringify(label);
  return labels.map((label) => {
    let current = label;
    let count = counts.get(key(current)) ?? 0;
    while (count > 0) {
      counts.set(key(current), count + 1);
      current = [...current.slice(0, -1), `${current[current.length - 1]}.${count}`];
      count = counts.get(key(current)) ?? 0;
    }
    counts.set(key(current), count + 1);
    return current.map((title) => stripChars(title, '"'));
  });
}

/**
 * The unit of a column: each title's first unit word; the last title decides (so a unit row
 * below the names wins). Without one, the spec's CamelCase suffix of the first title.
 */
function columnUnit(titles: string[]): UnitRef | undefined {
  let unit: UnitRef | undefined;
  for (const title of titles) {
    unit = undefined;
    for (const part of title.split(' ')) {
      unit = unitOf(part) ?? bracketedUnitOf(part);
      if (unit) break;
    }
  }
  return unit ?? suffixUnitOf(titles[0] ?? '');
}

/**
 * The unit in brackets at the end of a word without a space before them: `日時(μs)` (Keyence),
 * `Weg[mm]`. The original split titles at spaces only and found none.
 */
function bracketedUnitOf(word: string): UnitRef | undefined {
  const inside = /.[([]([^()[\]]+)[)\]]$/u.exec(word)?.[1];
  return inside === undefined ? undefined : unitOf(inside);
}
