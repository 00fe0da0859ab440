// Data parts → `tables[]` (research §1.6), built from a stream of lines: header rows are the
// leading all-text lines, the column formats come from the first 20 data rows typed the way
// pandas hands them over (dtype of the whole column), units from the header words.
import { scanRow } from './fast-row.ts';
import { makeId } from './names.ts';
import { ColumnStats, pandasCell } from './pandas.ts';
import { SEP_REGEX, splitPandas, splitTyped, type Sep } from './separators.ts';
import { suffixUnitOf, unitOf, type UnitRef } from './units.ts';
import { QuotedNumbers } from './quoted-numbers.ts';
import { columnSignature, matches, QuietBlocks, quietRowPattern, type QuietRows } from './quiet-rows.ts';
import { stripChars, valueType, XSD_OF } from './value-type.ts';

const FORMAT_SAMPLE = 20;
const NOTHING = { chars: 0, lines: 0 };
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
  private blocks: QuietBlocks | undefined;
  private signature = '';

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
    const quiet = this.quiet(count);
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
   * Quiet rows of `text` from `from` on, taken in runs (no line strings): the number of
   * characters and lines taken, 0 when the next row needs a closer look.
   */
  quietBlock(text: string, from: number, count: number): { chars: number; lines: number } {
    if (!this.quiet(count) || !this.blocks) return NOTHING;
    const taken = this.blocks.take(text, from);
    this.partLines += taken.lines;
    this.rows += taken.lines;
    return taken;
  }

  /** The part's quiet-row check, made again after a column's state changed. */
  private quiet(count: number): QuietRows | null {
    if (this.fastPattern === undefined) {
      this.fastPattern = quietRowPattern(this.sep, count, this.width, this.stats);
      this.blocks = this.fastPattern ? new QuietBlocks(this.fastPattern) : undefined;
    }
    return this.fastPattern;
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
