// Numbers in cells (Model for Tabular Data §6.4.2): UAX35 number patterns (0 # grouping
// decimal E + - % ‰), groupChar/decimalChar, and the XSD lexical rules of the numeric types.
// The value keeps the cell's digits (group characters dropped, decimal character → '.',
// percent and per-mille applied), as the W3C test suite expects.

export interface NumberFormat {
  pattern?: string;
  decimalChar: string;
  groupChar: string | null;
}

export interface NumberPattern {
  regex: RegExp;
  minInteger: number;
  minFraction: number;
  maxFraction: number;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Compiles a UAX35 pattern; undefined when it is not a valid number pattern. */
export function compilePattern(pattern: string, format: NumberFormat): NumberPattern | undefined {
  const group = format.groupChar ?? ',';
  const decimal = format.decimalChar;
  const affix = '[+\\-%‰]*';
  const body = `((?:[#0]|${escape(group)})*)(?:${escape(decimal)}((?:[#0]|${escape(group)})*))?`;
  const shape = new RegExp(`^(${affix})${body}(?:E(\\+?)([#0]+))?([%‰]*)$`, 'u');
  const match = shape.exec(pattern);
  if (!match) return undefined;
  const [, prefix = '', integer = '', fraction, , , suffix = ''] = match;
  if (!/[#0]/.test(integer + (fraction ?? ''))) return undefined;

  const integerDigits = integer.split(group).join('');
  if (/0#/.test(integerDigits)) return undefined; // '#' may not follow '0' in the integer part
  const minInteger = (integerDigits.match(/0/g) ?? []).length;
  const segments = integer.split(group);
  let integerRegex: string;
  if (segments.length > 1) {
    const primary = (segments.at(-1) ?? '').length;
    const secondary = segments.length > 2 ? (segments.at(-2) ?? '').length : primary;
    if (primary === 0 || secondary === 0) return undefined;
    const g = escape(group);
    integerRegex = `(?:\\d{1,${secondary}}(?:${g}\\d{${secondary}})*${g}\\d{${primary}}|\\d{1,${primary}})`;
  } else {
    integerRegex = '\\d*';
  }

  let fractionRegex = '';
  let minFraction = 0;
  let maxFraction = 0;
  if (fraction !== undefined) {
    const fractionDigits = fraction.split(group).join('');
    if (/#0/.test(fractionDigits)) return undefined; // '0' may not follow '#' in the fraction
    minFraction = (fractionDigits.match(/0/g) ?? []).length;
    maxFraction = fractionDigits.length;
    const parts = fraction.split(group);
    const size = (parts[0] ?? '').length;
    const digits = parts.length > 1 && size > 0 ? `(?:\\d{${size}}${escape(group)})*\\d{1,${size}}` : '\\d*';
    fractionRegex = `(?:${escape(decimal)}(${digits}))${minFraction > 0 ? '' : '?'}`;
  }
  const exponent = match[5] === undefined ? '' : 'E[+-]?\\d+';
  const sign = '[+-]?';
  const literalPrefix = escape(prefix.replace(/[+-]/g, ''));
  const literalSuffix = escape(suffix);
  const regex = new RegExp(
    `^${literalPrefix}${sign}(${integerRegex})${fractionRegex}(${exponent})${literalSuffix}$`,
    'u',
  );
  return { regex, minInteger, minFraction, maxFraction };
}

/** Shifts the decimal point of a plain decimal string `places` to the left. */
function shiftLeft(value: string, places: number): string {
  const negative = value.startsWith('-');
  const unsigned = value.replace(/^[+-]/, '');
  const [int = '', frac = ''] = unsigned.split('.');
  const digits = int.padStart(places + 1, '0') + frac;
  const point = digits.length - frac.length - places;
  let result = `${digits.slice(0, point).replace(/^0+(?=\d)/, '')}.${digits.slice(point)}`.replace(
    /\.?0*$/,
    '',
  );
  if (result === '' || result === '.') result = '0';
  return (negative ? '-' : '') + result;
}

export interface ParsedNumber {
  /** Lexical form for the literal. */
  lexical: string;
  /** The number, for range and value constraints. */
  value: number;
  isInteger: boolean;
  special: boolean;
}

/**
 * Parses a cell as a number under `format`. `kind` restricts the lexical space: integers
 * take no decimal point or exponent; decimals no exponent and no NaN/INF.
 */
export function parseNumber(
  text: string,
  format: NumberFormat,
  pattern: NumberPattern | undefined,
  kind: 'integer' | 'decimal' | 'double',
): ParsedNumber | undefined {
  if (kind === 'double' && /^(?:NaN|INF|-INF)$/.test(text)) {
    return {
      lexical: text,
      value: text === 'NaN' ? NaN : text === 'INF' ? Infinity : -Infinity,
      isInteger: false,
      special: true,
    };
  }
  const group = format.groupChar ?? (pattern ? ',' : null);
  const decimal = format.decimalChar;
  if (pattern) {
    const match = pattern.regex.exec(text);
    if (!match) return undefined;
    const integerDigits = (match[1] ?? '').split(group ?? ',').join('');
    const fractionDigits = (match[2] ?? '').split(group ?? ',').join('');
    if (integerDigits.length < pattern.minInteger) return undefined;
    if (fractionDigits.length < pattern.minFraction || fractionDigits.length > pattern.maxFraction)
      return undefined;
    if (integerDigits === '' && fractionDigits === '') return undefined;
  } else {
    const g = group === null ? '' : `(?:${escape(group)}\\d+)*`;
    const plain = new RegExp(
      `^[%‰]?[+-]?(?:\\d+${g}(?:${escape(decimal)}\\d*)?|${escape(decimal)}\\d+)(?:[Ee][+-]?\\d+)?[%‰]?$`,
      'u',
    );
    if (!plain.test(text)) return undefined;
  }
  let lexical = text;
  if (group !== null) lexical = lexical.split(group).join('');
  if (decimal !== '.') lexical = lexical.split(decimal).join('.');
  const percent = lexical.includes('%');
  const permille = lexical.includes('‰');
  lexical = lexical.replace(/[%‰]/g, '');
  const hasExponent = /[Ee]/.test(lexical);
  const hasPoint = lexical.includes('.');
  if (kind === 'integer' && (hasPoint || hasExponent) && !percent && !permille) return undefined;
  if (kind === 'decimal' && hasExponent) return undefined;
  if (percent || permille) {
    if (hasExponent) {
      lexical = String(Number(lexical) / (percent ? 100 : 1000));
    } else {
      lexical = shiftLeft(lexical, percent ? 2 : 3);
    }
    if (kind === 'integer' && /[.eE]/.test(lexical)) return undefined;
  }
  if (kind === 'double') lexical = lexical.replace(/E(?=[+-]?\d)/, 'e');
  const value = Number(lexical);
  if (Number.isNaN(value)) return undefined;
  return { lexical, value, isInteger: !/[.eE]/.test(lexical), special: false };
}
