// Reading the values of a datastore's parameters and records: cells by their field's type,
// the sort expression, the list of fields. Shared by every implementation so that both read
// the same input the same way; each refusal is `invalid` naming the parameter.
import { maxColumns, tooWide } from '../limits.ts';
import { invalid } from '../process/errors.ts';
import { FIELD_TYPES, type Field, type FieldType, type Value } from './contract.ts';
import { numberText, type NumberStyle } from '../csvw/column-format.ts';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;

/**
 * A year-first date written with slashes (`2019/11/01`, as Japanese loggers and Keyence write
 * it, and the annotator types dateTime) in ISO form; anything else unchanged.
 */
function isoDate(text: string): string {
  return /^\d{4}\/\d{2}\/\d{2}(?![^T ])/.test(text)
    ? `${text.slice(0, 4)}-${text.slice(5, 7)}-${text.slice(8)}`
    : text;
}

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYY-MM-DDTHH:MM:SS[.fff]`: the text PostgreSQL gives a timestamp (with `T`), so both agree. */
function timestamp(text: string): string | undefined {
  const match = TIMESTAMP.exec(text);
  if (!match || !validDate(match[1] as string)) return undefined;
  const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const fraction = (match[5] ?? '').replace(/\.?0+$/, '').slice(0, 7);
  return `${match[1]}T${match[2]}:${match[3]}:${match[4] ?? '00'}${fraction}`;
}

/** 10^0 … 10^22: the powers of ten a double holds exactly (read from text: correctly rounded). */
const POWERS = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * `[+-]digits[.digits]`'s value from its digits read as an integer (`mantissa`, `digits` of
 * them, the point after `point` of them, -1 for none) when at most 15 digits make it exact:
 * the quotient by an exact power of ten is then correctly rounded (Clinger's fast path), i.e.
 * what Number() gives. NaN for the rest, which the caller reads the slow way.
 */
export function exactDecimal(negative: boolean, mantissa: number, digits: number, point: number): number {
  if (digits === 0 || digits > 15) return NaN;
  const scale = point < 0 ? 0 : digits - point;
  if (scale >= POWERS.length) return NaN;
  const value = mantissa / (POWERS[scale] as number);
  return negative ? -value : value;
}

/**
 * A decimal number's value (NaN if none). Most cells are `[+-]digits[.digits]` with at most 15
 * digits: their digits make an exact integer and the quotient by an exact power of ten is
 * correctly rounded (Clinger's fast path), i.e. what Number() gives, without its cost. The rest
 * goes to Number(), over the grammar's characters only (no hex, binary, octal or Infinity).
 */
function numberOf(text: string): number {
  const length = text.length;
  let i = 0;
  let c = length > 0 ? text.charCodeAt(0) : 0;
  const negative = c === 45;
  if (negative || c === 43) i = 1;
  let mantissa = 0;
  let digits = 0;
  let point = -1;
  for (; i < length; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (c === 46 && point < 0) point = digits;
    else break;
  }
  if (i === length) {
    const value = exactDecimal(negative, mantissa, digits, point);
    if (value === value) return value;
  }
  for (let j = 0; j < length; j++) {
    c = text.charCodeAt(j);
    // digits . + - e E only: Number() then reads no hex, binary, octal or Infinity
    if (!((c >= 48 && c <= 57) || c === 46 || c === 43 || c === 45 || c === 101 || c === 69)) {
      return NUMBER.test(text.trim()) ? Number(text) : NaN;
    }
  }
  // Over these characters Number() accepts exactly what NUMBER does (and is NaN for the rest).
  return length === 0 ? NaN : Number(text);
}

/** Whether a column of the type holds numbers. */
export const isNumericType = (type: FieldType): boolean =>
  type === 'numeric' || type === 'float' || type === 'int';

/**
 * Whether `raw` is already a value of the type as stored, read as itself: null, text for text,
 * a finite number (a safe integer for int). Small, so that a caller handing over values it has
 * read (the import) pays little for their check.
 */
export function isStored(type: FieldType, raw: unknown): raw is Value {
  if (raw === null) return true;
  if (typeof raw === 'number') {
    if (type === 'int') return Number.isSafeInteger(raw);
    return (type === 'numeric' || type === 'float') && Number.isFinite(raw);
  }
  return type === 'text' && typeof raw === 'string';
}

/** A CSV cell's text as a number column stores it: null when blank, undefined when unreadable. */
function numberCell(text: string, int: boolean): Value | undefined {
  const number = numberOf(text);
  if (number === number) {
    if (!Number.isFinite(number)) return undefined;
    return int && !Number.isSafeInteger(number) ? undefined : number;
  }
  return text === '' || text.trim() === '' ? null : undefined;
}

const readInt = (text: string): Value | undefined => numberCell(text, true);
const readFloat = (text: string): Value | undefined => numberCell(text, false);
const readText = (text: string): Value => (text === '' ? null : text);

/**
 * A CSV cell of a number column written in `style` (the descriptor's decimalChar and
 * groupChar, or the original's reading): its plain text by column-format.ts, as describe
 * reads the same cell.
 */
function styledCell(text: string, int: boolean, style: NumberStyle): Value | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const plain = numberText(trimmed, style);
  return plain === undefined ? undefined : numberCell(plain, int);
}

/**
 * How a column of the type reads a CSV cell's text: as `readValue(type, text)`, except that a
 * text column's empty cell is null (a CSV cannot tell it from a missing one), and a number
 * column reads its cells as its descriptor writes them (`style`). One small function per
 * type, chosen once per column: an import's millions of cells skip the dispatch; a plain
 * number takes the fast path whatever the style but a decimal comma.
 */
export function cellReader(type: FieldType, style: NumberStyle = null): (text: string) => Value | undefined {
  if (type === 'text') return readText;
  if (type !== 'int' && type !== 'numeric' && type !== 'float') return (text) => readValue(type, text);
  const int = type === 'int';
  const fast = int ? readInt : readFloat;
  if (style !== null && style.decimalChar !== '.') return (text) => styledCell(text, int, style);
  return (text) => {
    const value = fast(text);
    return value === undefined ? styledCell(text, int, style) : value;
  };
}

/**
 * A value as the field's type stores it; undefined when it cannot be read. Empty text is null
 * for every type but text (a CSV's empty cell has no number).
 */
export function readValue(type: FieldType, raw: unknown): Value | undefined {
  if (isStored(type, raw)) return raw;
  if (raw === undefined) return null;
  if (type === 'text') return typeof raw === 'number' ? String(raw) : undefined;
  const numeric = isNumericType(type);
  // A number's text first: the import's usual cell, read without a blank test.
  if (numeric && typeof raw === 'string') return numberCell(raw, type === 'int');
  if (numeric && typeof raw === 'number') return undefined; // not finite, or not a safe integer
  if (raw === '' || (typeof raw === 'string' && raw.trim() === '')) return null;
  switch (type) {
    case 'numeric':
    case 'float':
    case 'int':
      return undefined;
    case 'bool':
      if (raw === true || raw === 'true' || raw === 1 || raw === '1') return true;
      if (raw === false || raw === 'false' || raw === 0 || raw === '0') return false;
      return undefined;
    case 'date': {
      const date = typeof raw === 'string' ? isoDate(raw.trim()) : undefined;
      return date !== undefined && validDate(date) ? date : undefined;
    }
    case 'timestamp':
      return typeof raw === 'string' ? timestamp(isoDate(raw.trim())) : undefined;
  }
}

/** A value read for the parameter `field`, or an `invalid` error naming it. */
export function valueOf(field: Field, raw: unknown, parameter: string): Value {
  const value = readValue(field.type, raw);
  if (value === undefined) {
    throw invalid(
      `${JSON.stringify(raw)} is not a ${field.type} (column ${JSON.stringify(field.id)})`,
      parameter,
    );
  }
  return value;
}

/** The fields of a create, checked: ids non-empty, unique, not `_`-prefixed (CKAN's own). */
export function checkFields(fields: unknown): Field[] {
  if (!Array.isArray(fields) || fields.length === 0)
    throw invalid('a non-empty list of {id, type}', 'fields');
  const limit = maxColumns();
  if (fields.length > limit) throw tooWide('fields', limit, `a table of ${fields.length} fields`);
  const seen = new Set<string>();
  return fields.map((field: unknown) => {
    const { id, type = 'text' } = (field ?? {}) as { id?: unknown; type?: unknown };
    if (typeof id !== 'string' || id === '' || id.startsWith('_') || id.length > 1000) {
      throw invalid(`field id ${JSON.stringify(id)}: a non-empty name not starting with _`, 'fields');
    }
    if (seen.has(id)) throw invalid(`field id ${JSON.stringify(id)} appears twice`, 'fields');
    seen.add(id);
    if (!(FIELD_TYPES as readonly unknown[]).includes(type)) {
      throw invalid(
        `field ${JSON.stringify(id)}: type ${JSON.stringify(type)} is not one of ${FIELD_TYPES.join(', ')}`,
        'fields',
      );
    }
    const info = (field as { info?: unknown }).info;
    if (info === undefined) return { id, type: type as FieldType };
    const { label, unit } = (info ?? {}) as { label?: unknown; unit?: unknown };
    if (typeof info !== 'object' || [label, unit].some((v) => v !== undefined && typeof v !== 'string')) {
      throw invalid(`field ${JSON.stringify(id)}: info has text label and unit`, 'fields');
    }
    return {
      id,
      type: type as FieldType,
      info: {
        ...(label === undefined ? {} : { label }),
        ...(unit === undefined ? {} : { unit }),
      } as Field['info'],
    };
  });
}

export interface SortKey {
  id: string;
  descending: boolean;
}

/**
 * CKAN's sort string: comma-separated `name [asc|desc]`, a name in double quotes when it has
 * commas, spaces or quotes (`""` for a quote). Names must be the table's: anything else —
 * `name; DROP TABLE` included — is refused.
 */
export function parseSort(sort: unknown, known: (id: string) => boolean): SortKey[] {
  if (sort === undefined || sort === null || sort === '') return [];
  if (typeof sort !== 'string') throw invalid('a string such as "col asc, col2 desc"', 'sort');
  const keys: SortKey[] = [];
  let rest = sort.trim();
  const item = /^(?:"((?:[^"]|"")*)"|([^",\s]+))(?:\s+(asc|desc))?\s*(?:,\s*|$)/i;
  while (rest !== '') {
    const match = item.exec(rest);
    const id = match
      ? match[1] !== undefined
        ? match[1].replaceAll('""', '"')
        : (match[2] as string)
      : undefined;
    if (!match || id === undefined || !known(id)) {
      throw invalid(`cannot sort by ${JSON.stringify(rest)}: not "column [asc|desc]" of this table`, 'sort');
    }
    keys.push({ id, descending: match[3]?.toLowerCase() === 'desc' });
    rest = rest.slice(match[0].length);
  }
  return keys;
}

/** The fields asked for: a list, or a comma-separated string (CKAN accepts both). */
export function parseFieldList(fields: unknown, known: (id: string) => boolean): string[] | undefined {
  if (fields === undefined || fields === null || fields === '') return undefined;
  const list =
    typeof fields === 'string'
      ? fields.split(',').map((f) => f.trim())
      : Array.isArray(fields)
        ? fields
        : undefined;
  if (!list || list.some((f) => typeof f !== 'string' || !known(f))) {
    throw invalid(`${JSON.stringify(fields)}: names of this table's fields`, 'fields');
  }
  return [...new Set(list as string[])];
}

/** A count parameter (limit, offset): a whole number in range, read from a number or its text. */
export function countOf(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const number = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0 || number > max) {
    throw invalid(`${JSON.stringify(raw)}: a whole number from 0 to ${max}`, name);
  }
  return number;
}

/** `%word%` for LIKE, with its wildcards escaped by `\`. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
