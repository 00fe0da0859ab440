// The hot loop: one pass over a data row that both counts the five separator candidates (to
// know whether the row still belongs to its part) and reads each field's pandas numeric kind
// (for the column dtype) without splitting the line. Anything unusual — a quote, whitespace
// that pandas would strip, a field that is not a plain number — hands the row or the field
// back to the general code, so the result is always the same as the slow path's.
import type { ColumnStats } from './pandas.ts';
import { chooseSeparator, type Sep } from './separators.ts';
import { isPySpace } from './value-type.ts';

// States of the numeric scan (plain constants: this loop runs on every byte).
const START = 0;
const SIGN = 1;
const INT = 2;
const DOT = 3;
const FRAC = 4;
const EXP = 5;
const EXP_SIGN = 6;
const EXP_DIGITS = 7;
const TRAILING = 8;
const OTHER = 9;

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Reusable per-row buffers (one row at a time). */
const kinds: number[] = [];
const starts: number[] = [];
const ends: number[] = [];

/**
 * Records the row in `stats` and returns true when `line` has exactly separator `sep` with
 * `count` occurrences (the part's), no quotes and nothing pandas would strip; otherwise
 * returns false and records nothing. `tooWide` is set for rows longer than the columns.
 */
export function scanRow(line: string, sep: Sep, count: number, stats: ColumnStats[]): boolean | 'too-wide' {
  let n = line.length;
  if (n > 0 && line.charCodeAt(n - 1) === 10) n--;
  if (n > 0 && line.charCodeAt(n - 1) === 13) n--;
  // A colon separator is `:+\s+\s*` (several characters): the general code's; the scan below
  // would count its colons as pipes and always hand the row back anyway.
  if (sep === ':') return false;
  const sepCode = sep.charCodeAt(0);
  // Regex separators: pandas strips the line first, which moves fields; leave those rows.
  if (sep === '\t' || sep === '|') {
    if (n === 0 || isPySpace(line.charCodeAt(0)) || isPySpace(line.charCodeAt(n - 1))) return false;
  }
  let semi = 0;
  let pipe = 0;
  let colon = 0;
  let tab = 0;
  let comma = 0;
  let field = 0;
  let state = START;
  let digits = 0;
  let float = false;
  let fieldStart = 0;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c === sepCode) {
      kinds[field] = finish(state, digits, float);
      starts[field] = fieldStart;
      ends[field] = i;
      field++;
      fieldStart = i + 1;
      state = START;
      digits = 0;
      float = false;
      if (c === 59) semi++;
      else if (c === 9) tab++;
      else if (c === 44) comma++;
      else pipe++;
      continue;
    }
    if (c === 59) semi++;
    else if (c === 9) tab++;
    else if (c === 44) comma++;
    else if (c === 124) pipe++;
    else if (c === 58) {
      let j = i + 1;
      while (j < line.length && line.charCodeAt(j) === 58) j++;
      if (j < line.length && isPySpace(line.charCodeAt(j))) colon++;
    } else if (c === 34) return false; // quotes: the csv reader's business
    // Numeric state machine of pandas' xstrtod.
    switch (state) {
      case START:
        if (isSpace(c)) break;
        if (c === 43 || c === 45) state = SIGN;
        else if (isDigit(c)) {
          state = INT;
          digits = 1;
        } else if (c === 46) {
          state = DOT;
          float = true;
        } else state = OTHER;
        break;
      case SIGN:
      case INT:
        if (isDigit(c)) {
          state = INT;
          digits++;
        } else if (c === 46) {
          state = DOT;
          float = true;
        } else if ((c === 101 || c === 69) && digits > 0) state = EXP;
        else if (isSpace(c) && digits > 0) state = TRAILING;
        else state = OTHER;
        break;
      case DOT:
      case FRAC:
        if (isDigit(c)) {
          state = FRAC;
          digits++;
        } else if ((c === 101 || c === 69) && digits > 0) state = EXP;
        else if (isSpace(c) && digits > 0) state = TRAILING;
        else state = OTHER;
        break;
      case EXP:
        if (c === 43 || c === 45) state = EXP_SIGN;
        else if (isDigit(c)) {
          state = EXP_DIGITS;
          float = true;
        } else state = OTHER;
        break;
      case EXP_SIGN:
        state = isDigit(c) ? EXP_DIGITS : OTHER;
        float = true;
        break;
      case EXP_DIGITS:
        if (isDigit(c)) break;
        state = isSpace(c) ? TRAILING : OTHER;
        break;
      case TRAILING:
        if (!isSpace(c)) state = OTHER;
        break;
    }
  }
  kinds[field] = finish(state, digits, float);
  starts[field] = fieldStart;
  ends[field] = n;
  const chosen = chooseSeparator(semi, pipe, colon, tab, comma);
  if (chosen?.sep !== sep || chosen.count !== count) return false;
  if (field + 1 > stats.length) return 'too-wide';
  for (let col = 0; col < stats.length; col++) {
    const target = stats[col] as ColumnStats;
    if (col > field) target.addNA();
    else {
      const kind = kinds[col] as number;
      if (kind === 1 || kind === 2) target.addNumber(kind);
      else if (target.settled) target.rows++;
      else target.add(line.slice(starts[col], ends[col]));
    }
  }
  return true;
}

// 1 int, 2 float, 3 empty (NA), 0 anything else (the general test decides).
function finish(state: number, digits: number, float: boolean): number {
  if (state === START && digits === 0) return 0; // empty or spaces: decided by text
  if (digits === 0) return 0;
  if (state === INT || (state === TRAILING && !float)) return 1;
  if (state === DOT || state === FRAC || state === EXP_DIGITS || state === TRAILING) return 2;
  return 0;
}
