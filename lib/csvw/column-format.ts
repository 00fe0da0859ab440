// The one reading of how a descriptor says its CSV is written: the dialect (rows skipped, header
// rows, delimiter, encoding) and each column's value format (its XSD type and, for numbers, the
// CSVW datatype format's decimalChar and groupChar). The annotator writes number formats with
// `numberDatatype`; the import (lib/datastore/fields.ts, from the JSON) and describe
// (descriptor-rdf.ts, from the graph) look the properties up and hand them to the functions
// here, and read every numeric cell with `numberText` — so the three cannot disagree about
// what `"0,27211"` or `"9,286.44727"` is.
import type { DescriptorDialect } from './descriptor-rows.ts';

/** XSD names of the numeric types a column's format may name, and the integral ones among them. */
export const INTEGRAL_TYPES: ReadonlySet<string> = new Set([
  'integer',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'positiveInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'nonPositiveInteger',
  'negativeInteger',
]);
export const NUMERIC_TYPES: ReadonlySet<string> = new Set([
  ...INTEGRAL_TYPES,
  'double',
  'decimal',
  'float',
  'number',
]);

/**
 * How a column writes its numbers (CSVW `datatype.format`): the decimal character and the
 * grouping character. Null when the descriptor says nothing: then a cell is read as the
 * original annotator's /api/rdf read it (as it is, else a German decimal repaired).
 */
export type NumberStyle = { decimalChar: string; groupChar: string | null } | null;

/** The style of a column from its decimalChar and groupChar properties (undefined when absent). */
export function numberStyle(decimalChar: unknown, groupChar: unknown): NumberStyle {
  const decimal = typeof decimalChar === 'string' && decimalChar !== '' ? decimalChar : undefined;
  const group = typeof groupChar === 'string' && groupChar !== '' ? groupChar : undefined;
  if (decimal === undefined && group === undefined) return null;
  return { decimalChar: decimal ?? '.', groupChar: group ?? null };
}

/** The style of a column's CSVW `datatype` value as JSON (a name, or `{base, format}`). */
export function numberStyleOf(datatype: unknown): NumberStyle {
  if (typeof datatype !== 'object' || datatype === null) return null;
  const format = (datatype as { format?: unknown }).format;
  if (typeof format !== 'object' || format === null) return null;
  const { decimalChar, groupChar } = format as { decimalChar?: unknown; groupChar?: unknown };
  return numberStyle(decimalChar, groupChar);
}

/** The CSVW datatype the annotator writes for a double column of the style. */
export function numberDatatype(style: NonNullable<NumberStyle>): {
  base: 'double';
  format: { decimalChar: string; groupChar?: string };
} {
  const format = {
    decimalChar: style.decimalChar,
    ...(style.groupChar === null ? {} : { groupChar: style.groupChar }),
  };
  return { base: 'double', format };
}

const PLAIN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/**
 * A German decimal as the original repaired it (dots dropped, the comma a point), but only in
 * a number's shape: dots between groups of three digits, one comma (the original also took
 * `..0` or `1.2.3,4`, whose dots group nothing).
 */
const GERMAN = /^[+-]?(?:(?:\d+|\d{1,3}(?:\.\d{3})+),\d*|,\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A numeric cell (trimmed) as a plain decimal text that Number() reads exactly (`-0.27211`,
 * `9286.44727`, `-7.89E-05`), or undefined when it is not a number of the column. With a
 * style, its group characters are dropped and its decimal character becomes `.`; a `.` that
 * is neither refuses the cell. Without one, the original's reading: as it is, else a German
 * decimal (`1.234,5`).
 */
export function numberText(trimmed: string, style: NumberStyle): string | undefined {
  if (style === null) {
    if (PLAIN.test(trimmed)) return trimmed;
    return GERMAN.test(trimmed) ? trimmed.replace(/\./g, '').replace(',', '.') : undefined;
  }
  const { decimalChar, groupChar } = style;
  let text = trimmed;
  if (groupChar !== null) text = text.split(groupChar).join('');
  if (decimalChar !== '.') {
    if (text.includes('.')) return undefined;
    text = text.split(decimalChar).join('.');
  }
  return PLAIN.test(text) ? text : undefined;
}

function count(value: unknown, fallback: number): number {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : fallback;
}

/** A table's dialect properties as the rows are read by them (CSVW's defaults where absent). */
export function describedDialect(properties: {
  skipRows?: unknown;
  headerRowCount?: unknown;
  header?: unknown;
  delimiter?: unknown;
  encoding?: unknown;
}): DescriptorDialect {
  const { skipRows, headerRowCount, header, delimiter, encoding } = properties;
  const noHeader = header === false || header === 'false';
  return {
    skipRows: count(skipRows, 0),
    headerRowCount: count(headerRowCount ?? (noHeader ? 0 : undefined), 1),
    delimiter: typeof delimiter === 'string' && delimiter !== '' ? delimiter : ',',
    encoding: typeof encoding === 'string' && encoding !== '' ? encoding : 'utf-8',
  };
}
