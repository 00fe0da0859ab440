// The original's cell typer (research §1.9): Python-literal first, then dateutil, then URL.
// It decides part classification, header rows, column formats and annotation bodies.
import { parseDate } from './dateparse.ts';
import { literalEval } from './pyliteral.ts';
import { XSD } from '../rdf/vocab.ts';

export type ValueType = 'BLANK' | 'INT' | 'FLOAT' | 'BOOL' | 'DATE' | 'URI' | 'TEXT';

export const XSD_OF: Readonly<Record<ValueType, string | undefined>> = {
  BLANK: undefined,
  INT: `${XSD}integer`,
  FLOAT: `${XSD}double`,
  BOOL: `${XSD}boolean`,
  DATE: `${XSD}dateTime`,
  URI: `${XSD}anyURI`,
  TEXT: `${XSD}string`,
};

// Python's str.strip() whitespace (JS trim() differs: it strips U+FEFF, keeps \x1c-\x1f, \x85).
const PY_SPACE =
  '[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEADING = new RegExp(`^${PY_SPACE}+`);
const TRAILING = new RegExp(`${PY_SPACE}+$`);

/** One character of PY_SPACE (also Python's `\s`, as in the colon separator `:+\s+\s*`). */
export function isPySpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    (code >= 0x1c && code <= 0x1f) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function pyStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python's str.strip(chars) for a set of literal characters. */
export function stripChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start] as string)) start++;
  while (end > start && chars.includes(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

/** urlparse(x) has both a scheme and a network location. */
function isUri(text: string): boolean {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(text);
  return m !== null && (m[2] ?? '') !== '';
}

export interface Typed {
  type: ValueType;
  /** Numeric or boolean value of a literal, or the ISO string of a date. */
  value?: number | boolean | string;
}

const cache = new Map<string, Typed>();

/** get_value_type: the class of one cell (with the literal's value, for bodies). */
export function valueType(cell: string): Typed {
  const cached = cache.get(cell);
  if (cached) return cached;
  const typed = computeType(cell);
  if (cache.size > 50_000) cache.clear();
  cache.set(cell, typed);
  return typed;
}

/** A decimal-comma number in quotes, as Bluehill exports write every value (`"0,27211"`). */
export const QUOTED_DECIMAL_COMMA = /^"([+-]?\d+,\d+)"$/;
/**
 * A decimal-point number in quotes, its thousands grouped by commas or not, as English Bluehill
 * exports write every value (`"9,286.44727"`, `"0.01731"`).
 */
export const QUOTED_DECIMAL_POINT = /^"([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)\.\d+)"$/;
/** The same unquoted (`9,286.44727`): its commas group thousands, they are no decimal commas. */
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+\.\d+$/;

function computeType(cell: string): Typed {
  const stripped = pyStrip(cell);
  // The original read `"0,27211"` as a string literal, so a table of them was all text (notes).
  const quotedNumber = QUOTED_DECIMAL_COMMA.exec(stripped);
  const pointNumber = quotedNumber ? null : QUOTED_DECIMAL_POINT.exec(stripped);
  const number = pointNumber ? (pointNumber[1] as string) : stripped;
  const text =
    pointNumber || GROUPED.test(number)
      ? number.replace(/,/g, '')
      : (quotedNumber ? (quotedNumber[1] as string) : stripped).replace(/,/g, '.');
  if (text === '') return { type: 'BLANK' };
  const literal = literalEval(text);
  if (literal === 'value-error') return { type: 'TEXT' };
  if (literal === 'syntax-error') {
    const date = parseDate(text);
    if (date !== undefined) return { type: 'DATE', value: date };
    return { type: isUri(text) ? 'URI' : 'TEXT' };
  }
  if (literal.kind === 'int') return { type: 'INT', ...valueOf(literal.value) };
  if (literal.kind === 'float') return { type: 'FLOAT', ...valueOf(literal.value) };
  if (literal.kind === 'bool') return { type: 'BOOL', ...valueOf(literal.value) };
  return { type: 'TEXT' };
}

function valueOf(value: number | boolean | undefined): { value?: number | boolean } {
  return value === undefined ? {} : { value };
}

/** NUMBER merges INT and FLOAT, as the classifier does. */
export function classOf(cell: string): string {
  const type = valueType(cell).type;
  return type === 'INT' || type === 'FLOAT' ? 'NUMBER' : type;
}
