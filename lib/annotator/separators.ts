// Per-line separator detection (research §1.4 step A) and the two ways the original splits a
// line: `re.split` on the raw line (classification, header rows) and pandas' reading (csv
// quoting for `;` and `,`, strip-then-regex-split for tab, pipe and colon).
import { isPySpace, pyStrip } from './value-type.ts';

export type Sep = ';' | '|' | ':' | '\t' | ',';

/** Candidates in the original's priority order (ties go to the earlier one). */
export const SEPARATORS: readonly Sep[] = [';', '|', ':', '\t', ','];

/** The regex source the original writes as `dialect.delimiter`. */
export const SEP_REGEX: Readonly<Record<Sep, string>> = {
  ';': ';',
  '|': '\\|',
  ':': ':+\\s+\\s*',
  '\t': '\\t',
  ',': ',',
};

export interface LineSep {
  sep: Sep;
  count: number;
}

/**
 * The separator of one line (given with its line break, which counts as whitespace after a
 * colon), or undefined for a line without any. One pass over the characters. Separators
 * inside a quoted field (`"0,27211"`, `"a; b"`) do not count (the original counted them, so
 * a quoted decimal comma or a `;` in a remark could change a line's separator); a line whose
 * quotes do not close is counted as the original did.
 */
export function lineSeparator(line: string): LineSep | undefined {
  // Per candidate, in SEPARATORS order: all occurrences, and those inside quoted fields.
  const all = [0, 0, 0, 0, 0];
  const inQuotes = [0, 0, 0, 0, 0];
  let quoted = false;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) {
      if (quoted) {
        if (i + 1 < n && line.charCodeAt(i + 1) === 34)
          i++; // a doubled quote stays inside
        else quoted = false;
      } else if (i === 0 || isFieldStart(line.charCodeAt(i - 1))) quoted = true;
      continue;
    }
    let k = c < 128 ? (CANDIDATE_OF[c] as number) : -1;
    if (c === 58) {
      let j = i + 1;
      while (j < n && line.charCodeAt(j) === 58) j++;
      // Each regex counts on its own: the whitespace after the colons still counts as tabs.
      if (!(j < n && isPySpace(line.charCodeAt(j)))) k = -1;
      i = j - 1;
    }
    if (k < 0) continue;
    (all[k] as number)++;
    if (quoted) (inQuotes[k] as number)++;
  }
  const counts = quoted ? all : all.map((count, k) => count - (inQuotes[k] as number));
  const [semi = 0, pipe = 0, colon = 0, tab = 0, comma = 0] = counts;
  return chooseSeparator(semi, pipe, colon, tab, comma);
}

/** ASCII code → index in SEPARATORS, else -1 (a table: this runs on every character). */
const CANDIDATE_OF = new Int8Array(128).fill(-1);
for (const [k, sep] of SEPARATORS.entries()) CANDIDATE_OF[sep.charCodeAt(0)] = k;

/** A quote opens a field after a separator candidate or whitespace (else it is a character). */
function isFieldStart(previous: number): boolean {
  return previous === 59 || previous === 44 || previous === 124 || isPySpace(previous);
}

/** The choice among the five candidates' counts (shared with the hot row scan, fast-row.ts). */
export function chooseSeparator(
  semi: number,
  pipe: number,
  colon: number,
  tab: number,
  comma: number,
): LineSep | undefined {
  const counts = [semi, pipe, colon, tab, comma];
  let best = 0;
  for (let k = 1; k < 5; k++) if ((counts[k] as number) > (counts[best] as number)) best = k;
  if (counts[best] === 0) return undefined;
  if (best === 4) {
    // German decimals (`0,5;1,5`): a runner-up with at least comma count − 1 wins.
    let second = 0;
    for (let k = 1; k < 4; k++) if ((counts[k] as number) > (counts[second] as number)) second = k;
    const runnerUp = counts[second] as number;
    // Bug fix: with no runner-up at all the original chose `;` with count 0, so every
    // two-column comma CSV became one field per line and an empty descriptor.
    if (runnerUp >= comma - 1 && runnerUp > 0) return { sep: SEPARATORS[second] as Sep, count: runnerUp };
  }
  return { sep: SEPARATORS[best] as Sep, count: counts[best] as number };
}

/** Python `re.split(sep_regex, line)` on the raw line. */
export function splitRaw(line: string, sep: Sep): string[] {
  if (sep !== ':') return line.split(sep);
  const fields: string[] = [];
  let start = 0;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    if (line.charCodeAt(i) !== 58) continue;
    let j = i;
    while (j < n && line.charCodeAt(j) === 58) j++;
    if (j < n && isPySpace(line.charCodeAt(j))) {
      fields.push(line.slice(start, i));
      while (j < n && isPySpace(line.charCodeAt(j))) j++;
      start = j;
    }
    i = j - 1;
  }
  fields.push(line.slice(start));
  return fields;
}

/**
 * `splitRaw`, but a quoted field that holds the separator stays one field, quotes and all
 * (`"9,286.44727"`), where pandas honours quotes: the original split such a field in two when
 * typing a line, so a Bluehill results line looked like a header and its block like a table.
 */
export function splitTyped(line: string, sep: Sep): string[] {
  const fields = splitRaw(line, sep);
  if (!quotesHonoured(sep) || line.indexOf('"') < 0) return fields;
  const whole: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    let field = fields[i] as string;
    while (opensQuote(field) && i + 1 < fields.length) field += sep + (fields[++i] as string);
    whole.push(field);
  }
  return whole;
}

/** A field that starts with a quote and has not closed it (an odd number of quotes). */
function opensQuote(field: string): boolean {
  const text = field.trimStart();
  if (!text.startsWith('"')) return false;
  let quotes = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 34) quotes++;
  return quotes % 2 === 1;
}

/** Whether pandas reads this separator with Python's csv module (quotes honoured). */
function quotesHonoured(sep: Sep): boolean {
  return sep === ';' || sep === ',';
}

/**
 * The fields pandas reads from one line: csv rules (quotes, doubled quotes) for `;` and `,`;
 * for the regex separators the line is stripped first and quotes stay in the fields.
 */
export function splitPandas(line: string, sep: Sep): string[] {
  const body = stripLineBreak(line);
  if (!quotesHonoured(sep)) return splitRaw(pyStrip(body), sep);
  if (body.indexOf('"') < 0) return body.split(sep);
  return splitQuoted(body, sep);
}

function stripLineBreak(line: string): string {
  let end = line.length;
  if (end > 0 && line.charCodeAt(end - 1) === 10) end--;
  if (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  return end === line.length ? line : line.slice(0, end);
}

// Python csv.reader on one line, lenient where strict mode would raise (the original then
// failed the whole request or dropped the table).
function splitQuoted(line: string, sep: string): string[] {
  const fields: string[] = [];
  let field = '';
  let state: 'start' | 'field' | 'quoted' | 'quote-in-quoted' = 'start';
  const endField = (): void => {
    fields.push(field);
    field = '';
    state = 'start';
  };
  for (const c of line) {
    if (state === 'quoted') {
      if (c === '"') state = 'quote-in-quoted';
      else field += c;
    } else if (c === sep) endField();
    else if (state === 'start' && c === '"') state = 'quoted';
    else if (state === 'quote-in-quoted' && c === '"') {
      field += '"';
      state = 'quoted';
    } else {
      field += c;
      state = 'field';
    }
  }
  fields.push(field);
  return fields;
}
