// Date normalisation for the IDLab normalizeDate* functions: a Java DateTimeFormatter pattern
// (`dd-MMM-yy`, `yyyyMMdd'T'HH:mm:ss`, …) is turned into a regular expression, month names
// come from Intl for the given language, and the result is ISO 8601.
import { functionError } from '../errors.ts';
import { isLanguageTag } from '../terms.ts';

const monthNames = new Map<string, string[][]>();

/** Short and long month names of a language, lower-cased, as [short[], long[]]. */
function months(language: string): string[][] {
  let names = monthNames.get(language);
  if (!names) {
    // The language comes from the data or the mapping: a malformed tag is the mapping's error
    // (Intl would throw a bare RangeError, which callers would take for an engine fault).
    if (!isLanguageTag(language)) throw functionError(`normalizeDate: "${language}" is not a language tag`);
    const styles = ['short', 'long'] as const;
    names = styles.map((month) => {
      const format = new Intl.DateTimeFormat(language, { month, timeZone: 'UTC' });
      return Array.from({ length: 12 }, (_, m) =>
        format.format(new Date(Date.UTC(2000, m, 1))).toLowerCase(),
      );
    });
    monthNames.set(language, names);
  }
  return names;
}

interface Field {
  kind: 'year' | 'month' | 'monthName' | 'day' | 'hour' | 'minute' | 'second' | 'skip';
  width: number;
}

function tokenise(pattern: string): { regex: RegExp; fields: Field[] } {
  let source = '';
  const fields: Field[] = [];
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      const text = pattern.slice(i + 1, end < 0 ? pattern.length : end);
      source += text === '' ? "'" : text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    let width = 1;
    while (pattern[i + width] === c) width += 1;
    i += width;
    const numeric = (kind: Field['kind']) => {
      fields.push({ kind, width });
      source += width === 1 ? '(\\d{1,2})' : `(\\d{${width === 2 && kind === 'year' ? 2 : width}})`;
    };
    if (c === 'y' || c === 'u') {
      fields.push({ kind: 'year', width });
      source += width === 2 ? '(\\d{2})' : '(\\d{4})';
    } else if (c === 'M' || c === 'L') {
      if (width >= 3) {
        fields.push({ kind: 'monthName', width });
        source += '([^\\s\\d-/,]+)';
      } else numeric('month');
    } else if (c === 'd') numeric('day');
    else if (c === 'H' || c === 'k') numeric('hour');
    else if (c === 'm') numeric('minute');
    else if (c === 's') numeric('second');
    else if (c === 'E') {
      fields.push({ kind: 'skip', width });
      source += '([^\\s\\d,]+)';
    } else if (/[A-Za-z]/.test(c)) throw new Error(`unsupported pattern letter "${c}"`);
    else source += c.repeat(width).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return { regex: new RegExp(`^${source}$`, 'i'), fields };
}

/** Patterns compiled so far (null: not a pattern); the function runs once per record, the pattern rarely changes. */
const patterns = new Map<string, ReturnType<typeof tokenise> | null>();
const PATTERN_LIMIT = 1000;

function compiledPattern(pattern: string): ReturnType<typeof tokenise> | null {
  let parsed = patterns.get(pattern);
  if (parsed === undefined) {
    try {
      parsed = tokenise(pattern);
    } catch {
      parsed = null;
    }
    if (patterns.size >= PATTERN_LIMIT) patterns.clear();
    patterns.set(pattern, parsed);
  }
  return parsed;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The ISO form of `value` read with `pattern`, or null when it does not match. */
export function normalizeDate(
  value: string,
  pattern: string,
  withTime: boolean,
  language: string,
): string | null {
  const parsed = compiledPattern(pattern);
  if (!parsed) return null;
  const match = parsed.regex.exec(value.trim());
  if (!match) return null;
  const parts = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const [i, field] of parsed.fields.entries()) {
    const text = match[i + 1]!;
    if (field.kind === 'skip') continue;
    if (field.kind === 'monthName') {
      const [short, long] = months(language);
      const lower = text.toLowerCase();
      const index = Math.max(short!.indexOf(lower), long!.indexOf(lower));
      if (index < 0) return null;
      parts.month = index + 1;
    } else if (field.kind === 'year') {
      const year = Number(text);
      parts.year = field.width === 2 ? 2000 + year : year;
    } else {
      parts[field.kind] = Number(text);
    }
  }
  const date = `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`;
  return withTime ? `${date}T${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}` : date;
}
