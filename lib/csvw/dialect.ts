// CSVW dialect descriptions: defaults, validation (an invalid value is a warning and the
// default applies), and the flags the CSV reader works with.
import type { Warnings } from './types.ts';

export type Trim = 'true' | 'false' | 'start' | 'end';

export interface Dialect {
  commentPrefix: string | null;
  delimiter: string;
  /** Single character that escapes the quote character (`"` when doubleQuote, else `\`). */
  escapeChar: string;
  encoding: string;
  headerRowCount: number;
  lineTerminators: string[];
  quoteChar: string | null;
  skipBlankRows: boolean;
  skipColumns: number;
  skipRows: number;
  trim: Trim;
}

export const DEFAULT_DIALECT: Readonly<Dialect> = Object.freeze({
  commentPrefix: null, // the suite (test286…) reads '#' header rows as titles
  delimiter: ',',
  escapeChar: '"',
  encoding: 'utf-8',
  headerRowCount: 1,
  lineTerminators: ['\r\n', '\n'],
  quoteChar: '"',
  skipBlankRows: false,
  skipColumns: 0,
  skipRows: 0,
  trim: 'true',
});

const KEYS = new Set([
  '@id',
  '@type',
  'commentPrefix',
  'delimiter',
  'doubleQuote',
  'encoding',
  'header',
  'headerRowCount',
  'lineTerminators',
  'quoteChar',
  'skipBlankRows',
  'skipColumns',
  'skipInitialSpace',
  'skipRows',
  'trim',
]);

function isEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

function nonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * The dialect a (validated) dialect description asks for. `raw` may be undefined (defaults).
 * Unknown members and invalid values only warn, as CSVW asks of processors.
 */
export function readDialect(raw: Record<string, unknown> | undefined, warnings: Warnings): Dialect {
  const dialect: Dialect = { ...DEFAULT_DIALECT, lineTerminators: [...DEFAULT_DIALECT.lineTerminators] };
  if (!raw) return dialect;
  const invalid = (key: string): void => warnings.add(`dialect: invalid ${key} ${JSON.stringify(raw[key])}`);
  for (const key of Object.keys(raw)) {
    if (!KEYS.has(key) && !key.includes(':')) warnings.add(`dialect: unknown property ${key}`);
  }
  const string = (key: string, apply: (value: string) => void, allowNull = false): void => {
    if (!(key in raw)) return;
    const value = raw[key];
    if (typeof value === 'string') apply(value);
    else if (value === null && allowNull) apply(null as unknown as string);
    else invalid(key);
  };
  const boolean = (key: string): boolean | undefined => {
    if (!(key in raw)) return undefined;
    if (typeof raw[key] === 'boolean') return raw[key];
    invalid(key);
    return undefined;
  };
  const count = (key: string): number | undefined => {
    if (!(key in raw)) return undefined;
    if (nonNegative(raw[key])) return raw[key];
    invalid(key);
    return undefined;
  };

  string('commentPrefix', (value) => (dialect.commentPrefix = value), true);
  string('delimiter', (value) => (dialect.delimiter = value));
  string('encoding', (value) => {
    if (isEncoding(value)) dialect.encoding = value;
    else invalid('encoding');
  });
  string(
    'quoteChar',
    (value) => {
      if (value === null || [...value].length === 1) dialect.quoteChar = value;
      else invalid('quoteChar');
    },
    true,
  );
  if ('lineTerminators' in raw) {
    const value = raw['lineTerminators'];
    if (typeof value === 'string') dialect.lineTerminators = [value];
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      dialect.lineTerminators = value as string[];
    else invalid('lineTerminators');
  }
  if (boolean('doubleQuote') === false) dialect.escapeChar = '\\';
  const header = boolean('header');
  if (header === false) dialect.headerRowCount = 0;
  dialect.headerRowCount = count('headerRowCount') ?? dialect.headerRowCount;
  dialect.skipBlankRows = boolean('skipBlankRows') ?? false;
  dialect.skipColumns = count('skipColumns') ?? 0;
  dialect.skipRows = count('skipRows') ?? 0;
  const skipInitialSpace = boolean('skipInitialSpace');
  let trim: Trim | undefined;
  if ('trim' in raw) {
    const value = raw['trim'];
    if (typeof value === 'boolean') trim = value ? 'true' : 'false';
    else if (value === 'true' || value === 'false' || value === 'start' || value === 'end') trim = value;
    else invalid('trim');
  }
  // skipInitialSpace only counts when trim is not given.
  dialect.trim = trim ?? (skipInitialSpace === undefined ? 'true' : skipInitialSpace ? 'start' : 'false');
  if (dialect.escapeChar !== '"' && dialect.quoteChar === '\\') dialect.escapeChar = '\\';
  return dialect;
}

/**
 * The original annotator (CSVToCSVW) writes its delimiter as a Python regex source (`\t`, `\|`,
 * `:+\s+\s*`). Known forms become the character; another multi-character regex-looking value
 * becomes a RegExp; a plain character stays as it is.
 */
export function originalDelimiter(delimiter: string): string | RegExp {
  const known: Record<string, string> = { '\\t': '\t', '\\|': '|', '\\;': ';', '\\,': ',', '\\s': ' ' };
  if (Object.hasOwn(known, delimiter)) return known[delimiter] as string;
  if ([...delimiter].length > 1 && /[\\+*?[\]()|^$]/.test(delimiter)) {
    try {
      return new RegExp(delimiter, 'u');
    } catch {
      return delimiter;
    }
  }
  return delimiter;
}
