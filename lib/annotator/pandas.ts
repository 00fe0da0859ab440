// What pandas (1.5, python engine) makes of a column of cells: NA markers, int64 / float64 /
// bool / object dtype over the *whole* column, and the str() of each value. The original types
// cells after this conversion, so an int column with one empty cell becomes double.
import { valueType, type Typed } from './value-type.ts';

export type Dtype = 'int64' | 'float64' | 'bool' | 'object';

// prettier-ignore
const NA_VALUES = new Set([
  '', '-1.#IND', '1.#QNAN', '1.#IND', '-1.#QNAN', '#N/A N/A', '#N/A', 'N/A', 'n/a', 'NA', '<NA>', '#NA',
  'NULL', 'null', 'NaN', '-NaN', 'nan', '-nan',
]);
const TRUE_VALUES = new Set(['True', 'TRUE', 'true']);
const FALSE_VALUES = new Set(['False', 'FALSE', 'false']);

export function isNA(cell: string | undefined): boolean {
  return cell === undefined || NA_VALUES.has(cell);
}

const isAsciiSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const INFINITY = /^\s*[+-]?(?:inf|infinity)\s*$/i;

/**
 * pandas' numeric test of one cell (xstrtod): 0 = not a number, 1 = integer, 2 = float.
 * A hand-written scan: this runs on every cell of every data row.
 */
function numericKind(cell: string): 0 | 1 | 2 {
  const n = cell.length;
  let i = 0;
  while (i < n && isAsciiSpace(cell.charCodeAt(i))) i++;
  let c = cell.charCodeAt(i);
  if (c === 43 || c === 45) c = cell.charCodeAt(++i);
  let digits = 0;
  let kind: 1 | 2 = 1;
  while (i < n && isDigit(cell.charCodeAt(i))) [i, digits] = [i + 1, digits + 1];
  if (cell.charCodeAt(i) === 46) {
    kind = 2;
    i++;
    while (i < n && isDigit(cell.charCodeAt(i))) [i, digits] = [i + 1, digits + 1];
  }
  if (digits === 0) return INFINITY.test(cell) ? 2 : 0;
  c = cell.charCodeAt(i);
  if (c === 101 || c === 69) {
    let j = i + 1;
    const s = cell.charCodeAt(j);
    if (s === 43 || s === 45) j++;
    const start = j;
    while (j < n && isDigit(cell.charCodeAt(j))) j++;
    if (j === start) return 0;
    kind = 2;
    i = j;
  }
  while (i < n && isAsciiSpace(cell.charCodeAt(i))) i++;
  return i === n ? kind : 0;
}

/** Running summary of a column, enough to know its dtype after any number of rows. */
export class ColumnStats {
  rows = 0;
  na = 0;
  nonNumeric = 0;
  floats = 0;
  nonBool = 0;

  /** Object dtype can no longer change: later cells need not be looked at. */
  get settled(): boolean {
    return this.nonNumeric > 0 && (this.nonBool > 0 || this.na > 0);
  }

  add(cell: string | undefined): void {
    if (cell === undefined || NA_VALUES.has(cell)) return this.addNA();
    const kind = numericKind(cell);
    if (kind !== 0) return this.addNumber(kind);
    this.addText(cell);
  }

  addText(cell: string): void {
    this.rows++;
    this.nonNumeric++;
    if (!TRUE_VALUES.has(cell) && !FALSE_VALUES.has(cell)) this.nonBool++;
  }

  addNA(): void {
    this.rows++;
    this.na++;
  }

  /** A cell already known to be numeric: 1 integer, 2 float. */
  addNumber(kind: 1 | 2): void {
    this.rows++;
    this.nonBool++;
    if (kind === 2) this.floats++;
  }

  dtype(): Dtype {
    if (this.nonNumeric === 0) return this.floats > 0 || this.na > 0 ? 'float64' : 'int64';
    if (this.nonBool === 0 && this.na === 0) return 'bool';
    return 'object';
  }
}

export interface Cell {
  /** str(value) as the original sees it after pandas ('nan' for NA). */
  text: string;
  typed: Typed;
}

const NAN_CELL: Cell = { text: 'nan', typed: { type: 'TEXT' } };

/** Python's repr of a float: always a `.0` or an exponent (`5.0`, `1e-05`, `1e+16`). */
function pyFloatRepr(value: number): string {
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const e10 = Number(exponent);
  if (e10 < -4 || e10 >= 16)
    return `${mantissa}e${e10 < 0 ? '-' : '+'}${String(Math.abs(e10)).padStart(2, '0')}`;
  // Between 1e-4 and 1e16 JavaScript writes plain decimals too, without the `.0`.
  const plain = Object.is(value, -0) ? '-0' : String(value);
  return plain.includes('.') ? plain : `${plain}.0`;
}

/** A cell as it comes out of a column of the given dtype. */
export function pandasCell(raw: string | undefined, dtype: Dtype): Cell {
  if (raw === undefined || NA_VALUES.has(raw)) return NAN_CELL;
  switch (dtype) {
    case 'int64': {
      const digits = raw.trim().replace(/^\+/, '');
      const text = digits.replace(/^(-?)0+(?=\d)/, '$1');
      return { text, typed: { type: 'INT', value: Number(text) } };
    }
    case 'float64': {
      const value = Number(raw.trim().replace(/^\+?(-?)inf(inity)?$/i, '$1Infinity'));
      if (!Number.isFinite(value)) return { text: value > 0 ? 'inf' : '-inf', typed: { type: 'TEXT' } };
      return { text: pyFloatRepr(value), typed: { type: 'FLOAT', value } };
    }
    case 'bool': {
      const value = TRUE_VALUES.has(raw);
      return { text: value ? 'True' : 'False', typed: { type: 'BOOL', value } };
    }
    default:
      return { text: raw, typed: valueType(raw) };
  }
}
