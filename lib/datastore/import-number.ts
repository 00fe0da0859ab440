// A number cell read straight from the CSV's bytes into its column (import-bytes.ts): the
// usual `[+-]digits[.digits]` of at most 15 digits, with the decimal character the column's
// descriptor allows, gives what `cellReader` gives for the same text (values.ts's exactDecimal
// does the arithmetic for both); anything else is left to `cellReader` (NaN).
import type { NumberStyle } from '../csvw/column-format.ts';
import { exactDecimal } from './values.ts';

const NEVER: readonly number[] = [];
/** Characters that would make a style's reading differ from the byte reader's. */
const DIGIT_OR_SIGN = /^[0-9+\-eE]$/;

/**
 * The bytes that may stand for the decimal point of a column written in `style`: `.` or the
 * original's German `,` without a style; the style's decimalChar with one; none when the
 * style's characters are digits or signs (such a column is read by text alone: undefined).
 */
export function decimalPoints(style: NumberStyle): readonly number[] | undefined {
  if (style === null) return [46, 44];
  const { decimalChar, groupChar } = style;
  if (decimalChar === '.') return [46]; // cellReader reads the plain text first, whatever the group
  if (decimalChar.length !== 1 || DIGIT_OR_SIGN.test(decimalChar)) return undefined;
  if (groupChar !== null && (groupChar === decimalChar || DIGIT_OR_SIGN.test(groupChar))) return undefined;
  return decimalChar === ',' ? [44] : NEVER;
}

/**
 * The cell `bytes[start, end)` as a number when it is `[+-]digits[<point>digits]` with at most
 * 15 digits (a whole number for `int`); NaN when it is anything else.
 */
export function numberOfBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  points: readonly number[] | undefined,
  int: boolean,
): number {
  if (points === undefined) return NaN;
  let i = start;
  let c = bytes[i] as number;
  const negative = c === 45;
  if (negative || c === 43) i++;
  let mantissa = 0;
  let digits = 0;
  let point = -1;
  for (; i < end; i++) {
    c = bytes[i] as number;
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (point < 0 && (c === points[0] || c === points[1])) point = digits;
    else return NaN;
  }
  const value = exactDecimal(negative, mantissa, digits, point);
  return int && !Number.isInteger(value) ? NaN : value;
}
