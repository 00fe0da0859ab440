// Datatype descriptions (Metadata Vocabulary §5.11): built-in names, derived datatypes with
// @id, formats compiled once per column, and the length and value constraints, whose
// contradictions are metadata errors.
import { isAbsoluteIri } from './vocab.ts';
import { builtinName, familyOf, isBuiltinIri, type Family } from './vocab.ts';
import { resolveUrl, type MetadataContext } from './common.ts';
import { compileDatePattern, dateKey, isLexicalDate, type DatePattern } from './date-format.ts';
import { compilePattern, parseNumber, type NumberFormat, type NumberPattern } from './number-format.ts';
import { metadataError } from './types.ts';
import { numberStyle } from './column-format.ts';

export interface Datatype {
  /** Built-in base name (`integer`, `date`, `string`, …). */
  base: string;
  family: Family;
  /** IRI of a derived datatype; literals are typed with it. */
  id?: string;
  numberFormat?: NumberFormat;
  numberPattern?: NumberPattern;
  datePattern?: DatePattern;
  booleanFormat?: [string, string];
  regex?: RegExp;
  length?: number;
  minLength?: number;
  maxLength?: number;
  minInclusive?: number | string;
  maxInclusive?: number | string;
  minExclusive?: number | string;
  maxExclusive?: number | string;
}

export const STRING_DATATYPE: Datatype = Object.freeze({ base: 'string', family: 'string' }) as Datatype;

function builtinDatatype(name: string): Datatype {
  return { base: name, family: familyOf(name) };
}

const KEYS = new Set([
  '@id',
  '@type',
  'base',
  'format',
  'length',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minInclusive',
  'maxInclusive',
  'minExclusive',
  'maxExclusive',
]);

function compileFormat(datatype: Datatype, format: unknown, ctx: MetadataContext): void {
  const bad = (): void =>
    ctx.warnings.add(`datatype ${datatype.base}: invalid format ${JSON.stringify(format)}`);
  switch (datatype.family) {
    case 'decimal':
    case 'double': {
      const object = typeof format === 'string' ? { pattern: format } : (format as Record<string, unknown>);
      if (object === null || typeof object !== 'object') return bad();
      // The same reading of decimalChar and groupChar as the import's and describe's.
      const style = numberStyle(object['decimalChar'], object['groupChar']);
      datatype.numberFormat = style ? { ...style } : { decimalChar: '.', groupChar: null };
      if (typeof object['pattern'] === 'string') {
        datatype.numberFormat.pattern = object['pattern'];
        const compiled = compilePattern(object['pattern'], datatype.numberFormat);
        if (compiled) datatype.numberPattern = compiled;
        else bad();
      }
      return;
    }
    case 'boolean': {
      const parts = typeof format === 'string' ? format.split('|') : [];
      if (parts.length === 2 && parts[0] && parts[1]) datatype.booleanFormat = [parts[0], parts[1]];
      else bad();
      return;
    }
    case 'date':
    case 'time':
    case 'dateTime': {
      const compiled = typeof format === 'string' ? compileDatePattern(format, datatype.family) : undefined;
      if (compiled) datatype.datePattern = compiled;
      else bad();
      return;
    }
    default: {
      if (typeof format !== 'string') return bad();
      try {
        datatype.regex = new RegExp(`^(?:${format})$`, 'u');
      } catch {
        bad();
      }
    }
  }
}

/** A bound of a value constraint, as a comparable key; undefined when it does not fit. */
function boundKey(datatype: Datatype, value: unknown): number | string | undefined {
  if (datatype.family === 'decimal' || datatype.family === 'double') {
    if (typeof value === 'number') return value;
    if (typeof value === 'string') {
      const parsed = parseNumber(value, { decimalChar: '.', groupChar: null }, undefined, 'double');
      return parsed?.value;
    }
    return undefined;
  }
  if (typeof value === 'string' && isLexicalDate(value, datatype.base)) return dateKey(value);
  return undefined;
}

function checkConstraints(datatype: Datatype, raw: Record<string, unknown>, ctx: MetadataContext): void {
  const fail = (why: string): never => {
    throw metadataError(`datatype ${datatype.base}: ${why}`, ctx.field);
  };
  for (const key of ['length', 'minLength', 'maxLength'] as const) {
    if (!(key in raw)) continue;
    const value = raw[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      ctx.warnings.add(`datatype ${datatype.base}: invalid ${key}`);
      continue;
    }
    if (!['string', 'binary', 'anyURI'].includes(datatype.family))
      fail(`${key} is not allowed on this datatype`);
    datatype[key] = value;
  }
  const { length, minLength, maxLength } = datatype;
  if (length !== undefined && minLength !== undefined && length < minLength) fail('length < minLength');
  if (length !== undefined && maxLength !== undefined && length > maxLength) fail('length > maxLength');
  if (minLength !== undefined && maxLength !== undefined && maxLength < minLength)
    fail('maxLength < minLength');

  const bounds: [string, 'minInclusive' | 'maxInclusive' | 'minExclusive' | 'maxExclusive'][] = [
    ['minimum', 'minInclusive'],
    ['maximum', 'maxInclusive'],
    ['minInclusive', 'minInclusive'],
    ['maxInclusive', 'maxInclusive'],
    ['minExclusive', 'minExclusive'],
    ['maxExclusive', 'maxExclusive'],
  ];
  for (const [key, slot] of bounds) {
    if (!(key in raw)) continue;
    if (!['decimal', 'double', 'date', 'time', 'dateTime'].includes(datatype.family))
      fail(`${key} is not allowed on this datatype`);
    const bound = boundKey(datatype, raw[key]);
    if (bound === undefined) ctx.warnings.add(`datatype ${datatype.base}: invalid ${key}`);
    else datatype[slot] = bound;
  }
  const { minInclusive: minI, maxInclusive: maxI, minExclusive: minE, maxExclusive: maxE } = datatype;
  if (minI !== undefined && minE !== undefined) fail('both minInclusive and minExclusive');
  if (maxI !== undefined && maxE !== undefined) fail('both maxInclusive and maxExclusive');
  if (minI !== undefined && maxI !== undefined && maxI < minI) fail('maxInclusive < minInclusive');
  if (minI !== undefined && maxE !== undefined && maxE <= minI) fail('maxExclusive <= minInclusive');
  if (minE !== undefined && maxE !== undefined && maxE < minE) fail('maxExclusive < minExclusive');
  if (minE !== undefined && maxI !== undefined && maxI <= minE) fail('maxInclusive <= minExclusive');
}

/** Reads a `datatype` value: a built-in name or a datatype description object. */
export function readDatatype(raw: unknown, ctx: MetadataContext): Datatype | undefined {
  if (typeof raw === 'string') {
    const name = builtinName(raw);
    if (name && !isAbsoluteIri(raw)) return builtinDatatype(name);
    ctx.warnings.add(`datatype ${JSON.stringify(raw)} is not a built-in datatype; string is used`);
    return builtinDatatype('string');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    ctx.warnings.add(`invalid datatype ${JSON.stringify(raw)}; ignored`);
    return undefined;
  }
  const object = raw as Record<string, unknown>;
  let base = 'string';
  if ('base' in object) {
    const name = typeof object['base'] === 'string' ? builtinName(object['base']) : undefined;
    if (name && !isAbsoluteIri(object['base'] as string)) base = name;
    else ctx.warnings.add(`datatype base ${JSON.stringify(object['base'])} is not built in; string is used`);
  }
  const datatype = builtinDatatype(base);
  if ('@id' in object) {
    const id = object['@id'];
    if (typeof id !== 'string') throw metadataError('datatype @id must be a string', ctx.field);
    if (id.startsWith('_:')) throw metadataError('datatype @id must not be a blank node', ctx.field);
    const resolved = resolveUrl(id, ctx.base);
    if (isBuiltinIri(resolved)) throw metadataError(`datatype @id ${id} is a built-in datatype`, ctx.field);
    datatype.id = resolved;
  }
  if ('@type' in object && object['@type'] !== 'Datatype')
    throw metadataError(`datatype @type must be Datatype, not ${JSON.stringify(object['@type'])}`, ctx.field);
  for (const key of Object.keys(object)) {
    if (!KEYS.has(key) && !key.includes(':')) ctx.warnings.add(`datatype: unknown property ${key}; ignored`);
  }
  if ('format' in object && object['format'] !== null) compileFormat(datatype, object['format'], ctx);
  checkConstraints(datatype, object, ctx);
  return datatype;
}
