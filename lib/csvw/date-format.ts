// Dates, times and durations in cells (Model for Tabular Data §6.4.3): the XSD lexical forms,
// and the CSVW date/time format patterns (yyyy-MM-dd, M/d/yyyy, HH:mm:ss.SSS, X/XX/XXX, …)
// whose matches are rewritten to XSD form.

const TZ = '(Z|[+-](?:0\\d|1[0-4]):[0-5]\\d)?';
const YEAR = '-?(?:[1-9]\\d{4,}|\\d{4})';
const MONTH = '(?:0[1-9]|1[0-2])';
const DAY = '(?:0[1-9]|[12]\\d|3[01])';
const TIME = '(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?|24:00:00(?:\\.0+)?)';

/** XSD lexical forms of the date/time and Gregorian types. */
const LEXICAL: Record<string, RegExp> = {
  date: new RegExp(`^${YEAR}-${MONTH}-${DAY}${TZ}$`),
  time: new RegExp(`^${TIME}${TZ}$`),
  dateTime: new RegExp(`^${YEAR}-${MONTH}-${DAY}T${TIME}${TZ}$`),
  dateTimeStamp: new RegExp(`^${YEAR}-${MONTH}-${DAY}T${TIME}(Z|[+-](?:0\\d|1[0-4]):[0-5]\\d)$`),
  gDay: new RegExp(`^---${DAY}${TZ}$`),
  gMonth: new RegExp(`^--${MONTH}${TZ}$`),
  gMonthDay: new RegExp(`^--${MONTH}-${DAY}${TZ}$`),
  gYear: new RegExp(`^${YEAR}${TZ}$`),
  gYearMonth: new RegExp(`^${YEAR}-${MONTH}${TZ}$`),
  duration: /^-?P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/,
  dayTimeDuration: /^-?P(?=\d|T\d)(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/,
  yearMonthDuration: /^-?P(?=\d)(?:\d+Y)?(?:\d+M)?$/,
};

/** Whether `text` is in the lexical space of date/time or duration type `base`. */
export function isLexicalDate(text: string, base: string): boolean {
  const regex = LEXICAL[base];
  if (!regex || !regex.test(text)) return false;
  // The day must exist in its month (February 30th does not).
  const match = /^-?(\d{4,})-(\d{2})-(\d{2})/.exec(text);
  if (match) {
    const [, year, month, day] = match.map(Number) as [number, number, number, number];
    if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  }
  return true;
}

const DATE_PATTERNS = new Set([
  'yyyy-MM-dd',
  'yyyyMMdd',
  'dd-MM-yyyy',
  'd-M-yyyy',
  'MM-dd-yyyy',
  'M-d-yyyy',
  'dd/MM/yyyy',
  'd/M/yyyy',
  'MM/dd/yyyy',
  'M/d/yyyy',
  'dd.MM.yyyy',
  'd.M.yyyy',
  'MM.dd.yyyy',
  'M.d.yyyy',
]);
const TIME_PATTERN = /^(?:HH:mm:ss(?:\.S+)?|HH:mm|HHmmss|HHmm)$/;
const ZONE_PATTERN = /^ ?(?:X{1,3}|x{1,3})$/;

export interface DatePattern {
  regex: RegExp;
  fields: string[];
  hasDate: boolean;
  hasTime: boolean;
}

const TOKEN_REGEX: Record<string, string> = {
  yyyy: '(\\d{4})',
  MM: '(\\d{2})',
  M: '(\\d{1,2})',
  dd: '(\\d{2})',
  d: '(\\d{1,2})',
  HH: '(\\d{2})',
  mm: '(\\d{2})',
  ss: '(\\d{2})',
  X: '(Z|[+-]\\d{2}(?:\\d{2})?)',
  XX: '(Z|[+-]\\d{4})',
  XXX: '(Z|[+-]\\d{2}:\\d{2})',
  x: '([+-]\\d{2}(?:\\d{2})?)',
  xx: '([+-]\\d{4})',
  xxx: '([+-]\\d{2}:\\d{2})',
};

/** Compiles a CSVW date/time format for `base`; undefined when the format is not allowed. */
export function compileDatePattern(
  format: string,
  base: 'date' | 'time' | 'dateTime',
): DatePattern | undefined {
  const zone = /( ?(?:X{1,3}|x{1,3}))$/.exec(format);
  const main = zone ? format.slice(0, zone.index) : format;
  if (zone && !ZONE_PATTERN.test(zone[1] as string)) return undefined;
  let datePart = '';
  let timePart = '';
  if (base === 'date') datePart = main;
  else if (base === 'time') timePart = main;
  else {
    const split = /^(.*?)[T ](HH.*)$/.exec(main);
    if (!split) return undefined;
    datePart = split[1] as string;
    timePart = split[2] as string;
  }
  if (datePart && !DATE_PATTERNS.has(datePart)) return undefined;
  if (timePart && !TIME_PATTERN.test(timePart)) return undefined;
  const fields: string[] = [];
  let regex = '';
  const tokens = format.match(/yyyy|MM|M|dd|d|HH|mm|ss|S+|X{1,3}|x{1,3}|./g) ?? [];
  for (const token of tokens) {
    if (/^S+$/.test(token)) {
      regex += `(\\d{1,${token.length}})`;
      fields.push('S');
    } else if (Object.hasOwn(TOKEN_REGEX, token)) {
      regex += TOKEN_REGEX[token];
      fields.push(/^[Xx]/.test(token) ? 'zone' : token.replace(/^(.)\1+$/, '$1').replace(/^y$/, 'yyyy'));
    } else {
      regex += token.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    }
  }
  return { regex: new RegExp(`^${regex}$`), fields, hasDate: datePart !== '', hasTime: timePart !== '' };
}

function zoneOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '';
  if (raw === 'Z') return 'Z';
  const digits = raw.slice(1).replace(':', '');
  return `${raw[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

/** Parses `text` with a compiled pattern into the XSD lexical form, or undefined. */
export function parseWithPattern(text: string, pattern: DatePattern, base: string): string | undefined {
  const match = pattern.regex.exec(text);
  if (!match) return undefined;
  const parts: Record<string, string> = {};
  pattern.fields.forEach((field, i) => (parts[field] = match[i + 1] ?? ''));
  const pad = (value: string | undefined): string => (value ?? '0').padStart(2, '0');
  const date = pattern.hasDate ? `${parts['yyyy']}-${pad(parts['M'])}-${pad(parts['d'])}` : '';
  let time = '';
  if (pattern.hasTime) {
    time = `${pad(parts['H'])}:${pad(parts['m'])}:${pad(parts['s'] ?? '00')}`;
    if (parts['S']) time += `.${parts['S']}`;
  }
  const lexical =
    (base === 'date' ? date : base === 'time' ? time : `${date}T${time}`) + zoneOf(parts['zone']);
  return isLexicalDate(lexical, base === 'dateTimeStamp' ? 'dateTimeStamp' : base) ? lexical : undefined;
}

/** A comparable key for value constraints (dates and times in one time zone compare as text). */
export function dateKey(lexical: string): number | string {
  const time = Date.parse(/^\d{2}:/.test(lexical) ? `1970-01-01T${lexical}` : lexical);
  return Number.isNaN(time) ? lexical : time;
}
