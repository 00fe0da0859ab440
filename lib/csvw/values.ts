// Cell values (Model for Tabular Data §6.4 Parsing Cells): whitespace normalisation, default,
// null, separator lists, then the datatype's lexical rules, format and constraints. A value
// that fails becomes a plain string and an error (a warning for the converter).
import type { Datatype } from './datatype.ts';
import { dateKey, isLexicalDate, parseWithPattern } from './date-format.ts';
import { parseNumber } from './number-format.ts';
import { datatypeIri, derivesFrom, XSD } from './vocab.ts';
import { isLanguageTag } from './common.ts';
import { XSD_INTEGER_RANGES } from '../rdf/vocab.ts';

export interface Literal {
  lexical: string;
  datatype: string;
  language?: string | undefined;
}

export interface ColumnValueSpec {
  datatype: Datatype;
  lang: string;
  nulls: string[];
  default: string;
  separator: string | null;
  required: boolean;
}

export interface CellValue {
  /** Literals of the cell (one, several for a list, none for null). */
  literals: Literal[];
  list: boolean;
  /** Value for URI templates: a string, a list, or null. */
  template: string | string[] | null;
  errors: string[];
}

const STRING_RULES: Record<string, (text: string) => boolean> = {
  normalizedString: (text) => !/[\r\n\t]/.test(text),
  token: (text) => !/[\r\n\t]|^ | $| {2}/.test(text),
  language: (text) => isLanguageTag(text),
  Name: (text) => /^[\p{L}_:][\p{L}\p{N}._:\-\p{M}\u00B7\u203F\u2040]*$/u.test(text),
  NMTOKEN: (text) => /^[\p{L}\p{N}._:\-\p{M}\u00B7\u203F\u2040]+$/u.test(text),
};

type Parsed = { lexical: string; key?: number | string } | { error: string };

function parseNumeric(text: string, datatype: Datatype): Parsed {
  const format = datatype.numberFormat ?? { decimalChar: '.', groupChar: null };
  const kind =
    datatype.family === 'double' ? 'double' : derivesFrom(datatype.base, 'integer') ? 'integer' : 'decimal';
  const parsed = parseNumber(text, format, datatype.numberPattern, kind);
  if (!parsed) return { error: `${JSON.stringify(text)} is not a valid ${datatype.base}` };
  const range = XSD_INTEGER_RANGES[datatype.base];
  if (range) {
    const value = BigInt(parsed.lexical.replace(/^\+/, ''));
    if ((range[0] !== null && value < range[0]) || (range[1] !== null && value > range[1]))
      return { error: `${text} is out of the range of ${datatype.base}` };
  }
  return { lexical: parsed.lexical, key: parsed.value };
}

function parseBoolean(text: string, datatype: Datatype): Parsed {
  if (datatype.booleanFormat) {
    if (text === datatype.booleanFormat[0]) return { lexical: 'true' };
    if (text === datatype.booleanFormat[1]) return { lexical: 'false' };
  } else {
    if (text === 'true' || text === '1') return { lexical: 'true' };
    if (text === 'false' || text === '0') return { lexical: 'false' };
  }
  return { error: `${JSON.stringify(text)} is not a valid boolean` };
}

function parseTyped(text: string, datatype: Datatype): Parsed {
  const invalid = (): Parsed => ({ error: `${JSON.stringify(text)} is not a valid ${datatype.base}` });
  switch (datatype.family) {
    case 'decimal':
    case 'double':
      return parseNumeric(text, datatype);
    case 'boolean':
      return parseBoolean(text, datatype);
    case 'date':
    case 'time':
    case 'dateTime': {
      const lexical = datatype.datePattern
        ? parseWithPattern(text, datatype.datePattern, datatype.base)
        : isLexicalDate(text, datatype.base)
          ? text
          : undefined;
      return lexical === undefined ? invalid() : { lexical, key: dateKey(lexical) };
    }
    case 'duration':
    case 'gregorian':
      if (!isLexicalDate(text, datatype.base)) return invalid();
      break;
    case 'binary':
      if (
        datatype.base === 'hexBinary'
          ? !/^(?:[0-9A-Fa-f]{2})*$/.test(text)
          : !/^[A-Za-z0-9+/\s]*={0,2}$/.test(text)
      )
        return invalid();
      break;
    case 'string': {
      const rule = Object.entries(STRING_RULES).find(([name]) => derivesFrom(datatype.base, name));
      if (rule && !rule[1](text)) return invalid();
      break;
    }
    default:
      break;
  }
  if (datatype.regex && !datatype.regex.test(text))
    return { error: `${JSON.stringify(text)} does not match the format of ${datatype.base}` };
  return { lexical: text };
}

function lengthOf(lexical: string, datatype: Datatype): number {
  if (datatype.base === 'hexBinary') return lexical.length / 2;
  if (datatype.base === 'base64Binary') return Buffer.from(lexical, 'base64').length;
  return [...lexical].length;
}

function constraintError(
  parsed: { lexical: string; key?: number | string },
  datatype: Datatype,
): string | undefined {
  const { length, minLength, maxLength, minInclusive, maxInclusive, minExclusive, maxExclusive } = datatype;
  if (length !== undefined || minLength !== undefined || maxLength !== undefined) {
    const size = lengthOf(parsed.lexical, datatype);
    if (length !== undefined && size !== length) return `length of ${parsed.lexical} is not ${length}`;
    if (minLength !== undefined && size < minLength) return `${parsed.lexical} is shorter than ${minLength}`;
    if (maxLength !== undefined && size > maxLength) return `${parsed.lexical} is longer than ${maxLength}`;
  }
  const key = parsed.key;
  if (key === undefined) return undefined;
  if (minInclusive !== undefined && key < minInclusive) return `${parsed.lexical} is below ${minInclusive}`;
  if (maxInclusive !== undefined && key > maxInclusive) return `${parsed.lexical} is above ${maxInclusive}`;
  if (minExclusive !== undefined && key <= minExclusive)
    return `${parsed.lexical} is not above ${minExclusive}`;
  if (maxExclusive !== undefined && key >= maxExclusive)
    return `${parsed.lexical} is not below ${maxExclusive}`;
  return undefined;
}

function stringLiteral(text: string, datatype: Datatype, lang: string): Literal {
  const withLanguage = datatype.base === 'string' || datatype.base === 'anyAtomicType';
  return {
    lexical: text,
    datatype: XSD + 'string',
    language: withLanguage && lang !== 'und' ? lang : undefined,
  };
}

/** One atomic value (after null/default handling). */
function atom(text: string, spec: ColumnValueSpec, errors: string[]): Literal {
  const { datatype, lang } = spec;
  const parsed = parseTyped(text, datatype);
  const problem = 'error' in parsed ? parsed.error : constraintError(parsed, datatype);
  if (problem !== undefined || 'error' in parsed) {
    errors.push(problem as string);
    return stringLiteral(text, datatype, lang);
  }
  if (datatype.id === undefined && (datatype.base === 'string' || datatype.base === 'anyAtomicType'))
    return stringLiteral(parsed.lexical, datatype, lang);
  return { lexical: parsed.lexical, datatype: datatype.id ?? datatypeIri(datatype.base) };
}

const PRESERVES_WHITESPACE = new Set(['string', 'json', 'xml', 'html', 'anyAtomicType']);

/** Parses the string of one cell for its column. */
export function parseCell(raw: string, spec: ColumnValueSpec): CellValue {
  const errors: string[] = [];
  const base = spec.datatype.base;
  let text = raw;
  if (!PRESERVES_WHITESPACE.has(base)) text = text.replace(/[\r\n\t]/g, ' ');
  if (!PRESERVES_WHITESPACE.has(base) && base !== 'normalizedString')
    text = text.trim().replace(/\s{2,}/g, ' ');
  if (text === '') text = spec.default;
  if (spec.separator !== null) {
    if (text === '' || spec.nulls.includes(text)) {
      if (spec.required) errors.push('required cell is empty');
      return { literals: [], list: true, template: text === '' ? [] : null, errors };
    }
    const items = text
      .split(spec.separator)
      .map((item) => (PRESERVES_WHITESPACE.has(base) ? item : item.trim()));
    const literals: Literal[] = [];
    const template: string[] = [];
    for (let item of items) {
      if (item === '') item = spec.default;
      if (spec.nulls.includes(item)) continue;
      const literal = atom(item, spec, errors);
      literals.push(literal);
      template.push(literal.lexical);
    }
    return { literals, list: true, template, errors };
  }
  if (spec.nulls.includes(text)) {
    if (spec.required) errors.push('required cell is empty');
    return { literals: [], list: false, template: null, errors };
  }
  const literal = atom(text, spec, errors);
  return { literals: [literal], list: false, template: literal.lexical, errors };
}
