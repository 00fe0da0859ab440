// The multi-block structure in one pass (research §1.4 step B): a part is a run of lines with
// the same separator and separator count. Each part is classified on its first 30 lines;
// metadata parts are kept whole (they become notes), data parts are streamed into a
// TableBuilder, so memory stays bounded by the metadata, not by the table.
import { invalid } from '../process/errors.ts';
import { tooWide } from '../limits.ts';
import { classify, CLASSIFY_SAMPLE, type Classification } from './classify.ts';
import { metaNotes, type Note } from './meta.ts';
import { lineSeparator, splitRaw, splitTyped, type LineSep, type Sep } from './separators.ts';
import { isTextLine, TableBuilder, TooManyHeaderLines, type Table } from './table.ts';
import { classOf, pyStrip } from './value-type.ts';

export interface SegmenterLimits {
  /** Characters of metadata lines kept for notes (an all-text table is read as metadata). */
  maxMetadataChars: number;
  /** Most columns in a row (LABLD_MAX_COLUMNS): a wider line is refused when it opens a part. */
  maxColumns: number;
  /** The hot path for plain table rows (default on); off, every row takes the general code. */
  fastPath?: boolean;
}

interface Part {
  sep: Sep;
  count: number;
  start: number;
  length: number;
  lines: string[];
  chars: number;
  classification?: Classification;
  table?: TableBuilder;
  /** For metadata parts that could become tables if the file has none (v1.3.5 fallback). */
  fallback?: TableBuilder;
  /** A header line with one field fewer than the rows, which end in an empty field. */
  trailingEmpty?: boolean;
}

export interface Segmented {
  notes: Note[];
  tables: Table[];
  nonBlankLines: number;
}

export class Segmenter {
  private line = 0;
  private current: Part | undefined;
  private readonly parts: Part[] = [];
  private watchers: TableBuilder[] = [];
  private metadataChars = 0;
  private nonBlank = 0;
  private readonly field: string;
  private readonly limits: SegmenterLimits;

  private readonly fast: boolean;

  constructor(field: string, limits: SegmenterLimits) {
    this.field = field;
    this.limits = limits;
    this.fast = limits.fastPath ?? true;
  }

  /**
   * Takes as many quiet table rows of `text` from `from` as it can in one go (see
   * TableBuilder.quietBlock); the caller pushes the next line itself.
   */
  quietBlock(text: string, from: number): { chars: number; lines: number } {
    const open = this.current;
    if (!this.fast || !open?.table?.fastReady || this.watchers.length > 0) return { chars: 0, lines: 0 };
    const taken = open.table.quietBlock(text, from, open.count);
    open.length += taken.lines;
    this.nonBlank += taken.lines;
    this.line += taken.lines;
    return taken;
  }

  /** One line, with its line break. */
  push(text: string): void {
    const open = this.current;
    if (
      this.fast &&
      open?.table?.fastReady &&
      this.watchers.length === 0 &&
      open.table.fastRow(text, open.count)
    ) {
      open.length++;
      this.nonBlank++;
      this.line++;
      return;
    }
    const sep = lineSeparator(text);
    const current = this.current;
    if (current !== undefined && sep !== undefined && headerOfWiderRows(current, sep, text)) {
      current.count = sep.count;
      current.trailingEmpty = true;
    }
    const continues =
      current !== undefined && sep !== undefined && sep.sep === current.sep && sep.count === current.count;
    if (!continues) {
      if (current) this.close(current, text, sep);
      this.current = undefined;
    }
    if (this.watchers.length > 0) {
      for (const watcher of this.watchers) watcher.observeAfter(text);
      this.watchers = this.watchers.filter((watcher) => watcher.watching);
    }
    if (sep !== undefined || pyStrip(text) !== '') this.nonBlank++;
    if (continues) this.add(current as Part, text);
    else if (sep) this.current = this.open(sep, text);
    this.line++;
  }

  private open(sep: LineSep, text: string): Part {
    // Every line of a part has its first line's separator count, so this one check covers the
    // hot paths too, before a wide row costs a column each in every table structure.
    if (sep.count + 1 > this.limits.maxColumns) {
      throw tooWide(this.field, this.limits.maxColumns, `line ${this.line + 1}`);
    }
    const part: Part = { sep: sep.sep, count: sep.count, start: this.line, length: 0, lines: [], chars: 0 };
    this.add(part, text);
    return part;
  }

  private add(part: Part, text: string): void {
    part.length++;
    if (part.table) return this.feed(part.table, text);
    this.keep(part, text);
    if (!part.classification && part.lines.length === CLASSIFY_SAMPLE) this.decide(part);
  }

  private keep(part: Part, text: string): void {
    part.lines.push(text);
    part.chars += text.length;
    this.metadataChars += text.length;
    if (this.metadataChars > this.limits.maxMetadataChars) {
      throw invalid(
        `${this.field}: the metadata block starting at line ${part.start + 1} is larger than ` +
          `${this.limits.maxMetadataChars} characters; all-text rows are read as metadata, so the file has no numeric table to annotate`,
        this.field,
      );
    }
  }

  private feed(table: TableBuilder, text: string): void {
    try {
      table.addPartLine(text);
    } catch (error) {
      if (!(error instanceof TooManyHeaderLines)) throw error;
      throw invalid(`${this.field}: the table at line ${table.start + 1} has no data rows`, this.field);
    }
  }

  private decide(part: Part): void {
    part.classification = classify(part.lines, part.sep, part.length);
    if (part.classification.kind !== 'data') return;
    const block = leadingMetadata(part.lines, part.sep);
    if (block > 0) this.splitOff(part, block);
    const table = new TableBuilder(part.sep, part.start, part.trailingEmpty);
    part.table = table;
    for (const text of part.lines) this.feed(table, text);
    this.metadataChars -= part.chars;
    part.lines = [];
    part.chars = 0;
  }

  /** The first `count` lines of `part` become a metadata part of their own, before it. */
  private splitOff(part: Part, count: number): void {
    const lines = part.lines.slice(0, count);
    const chars = lines.reduce((sum, line) => sum + line.length, 0);
    const classification: Classification = { kind: 'meta', hasHeaderRow: false };
    this.parts.push({ ...part, length: count, lines, chars, classification });
    part.start += count;
    part.length -= count;
    part.lines = part.lines.slice(count);
    part.chars -= chars;
  }

  private close(part: Part, next: string | undefined, nextSep: LineSep | undefined): void {
    if (!part.classification) this.decide(part);
    if (part.table) {
      this.checkRagged(part, next, nextSep);
      if (part.table.watching) this.watchers.push(part.table);
    } else if (part.classification?.hasHeaderRow) {
      const fallback = new TableBuilder(part.sep, part.start, part.trailingEmpty);
      for (const text of part.lines) this.feed(fallback, text);
      part.fallback = fallback;
      if (fallback.watching) this.watchers.push(fallback);
    }
    this.parts.push(part);
  }

  /**
   * A table row with a different number of fields right after a table (no blank line between)
   * is a ragged row: the original split the table there and crashed on the numeric "key".
   */
  private checkRagged(part: Part, next: string | undefined, nextSep: LineSep | undefined): void {
    if (next === undefined || nextSep === undefined || nextSep.sep !== part.sep) return;
    if (classOf(splitRaw(next, part.sep)[0] ?? '') !== 'NUMBER') return;
    throw invalid(
      `${this.field}: ragged rows: line ${this.line + 1} has ${nextSep.count + 1} fields, ` +
        `the table starting at line ${part.start + 1} has ${part.count + 1}`,
      this.field,
    );
  }

  finish(context: { namespace: string; url: string; encoding: string }): Segmented {
    if (this.current) this.close(this.current, undefined, undefined);
    this.current = undefined;
    const anyData = this.parts.some((part) => part.table);
    const notes: Note[] = [];
    const tables: Table[] = [];
    let tableNumber = 0;
    this.parts.forEach((part, i) => {
      const before = this.parts[i - 1];
      // A headerless block right after a table of the same shape (only blank lines between)
      // continues its columns: Bose WinTest's second acquisition block.
      if (part.table && before?.table && before.sep === part.sep && before.count === part.count) {
        part.table.continueFrom(before.table);
      }
      const table = part.table ?? (anyData ? undefined : part.fallback);
      if (table) {
        const built = table.finish({ ...context, key: `table-${++tableNumber}` });
        if (built) tables.push(built);
      } else notes.push(...metaNotes(part.lines, part.start, part.sep, part.count, context.namespace));
    });
    return { notes, tables, nonBlankLines: this.nonBlank };
  }
}

/**
 * Machine exports (`.ASC`) whose rows end with a separator have a header line with one field
 * fewer: a lone all-text line right above such a row is that table's header, not a note.
 */
function headerOfWiderRows(part: Part, next: LineSep, text: string): boolean {
  if (part.length !== 1 || part.lines.length !== 1 || next.sep !== part.sep || next.sep === ':') return false;
  if (next.count !== part.count + 1) return false;
  const fields = splitRaw(text.replace(/\r?\n$/, ''), next.sep);
  if (fields[fields.length - 1] !== '') return false;
  return splitRaw((part.lines[0] as string).replace(/\r?\n$/, ''), part.sep).every(
    (field) => classOf(field) === 'TEXT',
  );
}

/**
 * UBM's DMA export pads its settings (key/value groups side by side) to the table's width, so
 * they share the table's part and the original read them, the header and the unit row as data
 * (columns `0`…`34`). Such a block is the part's first lines when (1) they are at least two,
 * each with a text first field, and metadata by the original's own rule (classify), (2) an
 * all-text run follows (the header, a unit row), and (3) the row after it starts with a
 * number: keys above, records below. One line above such a run is rather a header with
 * numbers among its names (example4's sensor serials, the original's known limitation, kept).
 * The number of such lines, else 0; the header must lie within the classification sample.
 */
function leadingMetadata(lines: readonly string[], sep: Sep): number {
  const text = lines.map((line) => isTextLine(line, sep));
  const header = text.indexOf(true);
  if (header < 2) return 0;
  let row = header;
  while (row < lines.length && text[row]) row++;
  const first = splitTyped(lines[row] ?? '', sep)[0];
  if (row >= lines.length || first === undefined || classOf(first) !== 'NUMBER') return 0;
  return classify(lines.slice(0, header), sep, header).kind === 'meta' ? header : 0;
}
