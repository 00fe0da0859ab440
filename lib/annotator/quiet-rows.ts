// Quiet rows: table rows that continue their part and cannot change any column's dtype, so
// that the annotator may count them without reading them further. One regex per part says
// what such a row looks like; whole runs of them are taken by the SIMD kernel
// (quiet-kernel.ts), and by the regex where the kernel stops.
import type { ColumnStats } from './pandas.ts';
import { KERNEL_STATE, QuietKernel } from './quiet-kernel.ts';
import type { Sep } from './separators.ts';

const BLOCK_ROWS = 256;
const NOTHING = { chars: 0, lines: 0 };

// A pathological row can still exhaust the regex engine's stack; the general code takes it then.
export function matches(pattern: RegExp, text: string): boolean {
  try {
    return pattern.test(text);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

// What a row must look like to leave every column's dtype as it is, per column state.
type ColumnState = 'settled' | 'float' | 'int' | 'open';

function columnState(stats: ColumnStats): ColumnState {
  if (stats.settled) return 'settled';
  if (stats.nonNumeric > 0) return 'open';
  return stats.floats > 0 || stats.na > 0 ? 'float' : 'int';
}

export function columnSignature(stats: ColumnStats[]): string {
  return stats.map((s) => columnState(s)[0]).join('');
}

const NUMBER = '[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?';

export interface QuietRows {
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
  /** The same rows on bytes (colonsBlock's rows, or fewer), for every separator but colon. */
  kernel: QuietKernel | null;
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
export function quietRowPattern(
  sep: Sep,
  count: number,
  width: number,
  stats: ColumnStats[],
): QuietRows | null {
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
  const codes = states.map((state) => KERNEL_STATE[state as Exclude<ColumnState, 'open'>]);
  return {
    plain: new RegExp(`^${plain}\\r?\\n?$`),
    colons: new RegExp(`^${colons}\\r?\\n?$`),
    // At most BLOCK_ROWS rows per run: an unbounded `+` overflows the regex stack on big chunks.
    plainBlock: new RegExp(`(?:${plain}\\r?\\n){1,${BLOCK_ROWS}}`, 'y'),
    colonsBlock: new RegExp(`(?:${colons}\\r?\\n){1,${BLOCK_ROWS}}`, 'y'),
    others: lean === null ? null : new RegExp(`[${others.join('')}]`, 'g'),
    leanBlock: new RegExp(`(?:${lean ?? plain}\\n){1,${BLOCK_ROWS}}`, 'y'),
    kernel: sep === ':' ? null : new QuietKernel(sep, count, codes),
  };
}

/** Takes runs of quiet rows from a part's text, chunk after chunk. */
export class QuietBlocks {
  private readonly rows: QuietRows;
  private readonly kernel: QuietKernel | null;
  private colonText = '';
  private colonAt = -1;
  private otherAt = -1;

  /** `useKernel` false: the regex alone (the check the kernel must agree with). */
  constructor(rows: QuietRows, useKernel = true) {
    this.rows = rows;
    this.kernel = useKernel ? rows.kernel : null;
  }

  /**
   * Quiet rows of `text` from `from` (a row start) on: the number of characters and lines
   * taken, 0 when the next row needs a closer look.
   */
  take(text: string, from: number): { chars: number; lines: number } {
    let end = from;
    let lines = 0;
    for (;;) {
      if (this.kernel) {
        const run = this.kernel.run(text, end);
        end += run.chars;
        lines += run.lines;
        if (!run.stopped) break;
      }
      // The kernel stopped at this row (or there is none): the regex looks at it.
      const taken = this.regexRun(text, end);
      if (taken === end) break;
      for (let at = text.indexOf('\n', end); at >= 0 && at < taken; at = text.indexOf('\n', at + 1)) lines++;
      end = taken;
    }
    return end === from ? NOTHING : { chars: end - from, lines };
  }

  /** Where one run of the block regex from `from` ends (`from` when no row matches). */
  private regexRun(text: string, from: number): number {
    const quiet = this.rows;
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
    block.lastIndex = from;
    return matches(block, text) ? block.lastIndex : from;
  }
}
