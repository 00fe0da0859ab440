// dateutil's lexer and lookup tables, and its year/month/day resolution (for dateparse.ts).

// prettier-ignore
const JUMP = new Set([' ', '.', ',', ';', '-', '/', "'", 'at', 'on', 'and', 'ad', 'm', 't', 'of', 'st', 'nd', 'rd', 'th']);
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEKDAY_LONG = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
// prettier-ignore
const MONTHS: readonly (readonly string[])[] = [
  ['jan', 'january'], ['feb', 'february'], ['mar', 'march'], ['apr', 'april'], ['may'], ['jun', 'june'],
  ['jul', 'july'], ['aug', 'august'], ['sep', 'sept', 'september'], ['oct', 'october'], ['nov', 'november'],
  ['dec', 'december'],
];
const HMS: Record<string, number> = {
  h: 0,
  hour: 0,
  hours: 0,
  m: 1,
  minute: 1,
  minutes: 1,
  s: 2,
  second: 2,
  seconds: 2,
};
const AMPM: Record<string, number> = { am: 0, a: 0, pm: 1, p: 1 };
export const UTC_ZONES = ['UTC', 'GMT', 'Z', 'z'];

const isAlpha = (c: string): boolean => /^\p{L}$/u.test(c);
export const isDigit = (c: string): boolean =>
  /^\p{Nd}$/u.test(c) || /^[\u00b2\u00b3\u00b9\u2070-\u2079]$/.test(c);
export const isSpace = (c: string): boolean => {
  const code = c.charCodeAt(0);
  return /^\s$/.test(c) ? code !== 0xfeff : (code >= 0x1c && code <= 0x1f) || code === 0x85;
};

export const weekday = (t: string): number | undefined => {
  const l = t.toLowerCase();
  const i = WEEKDAYS.indexOf(l);
  return i >= 0 ? i : WEEKDAY_LONG.indexOf(l) >= 0 ? WEEKDAY_LONG.indexOf(l) : undefined;
};
export const month = (t: string | undefined): number | undefined => {
  if (t === undefined) return undefined;
  const i = MONTHS.findIndex((names) => names.includes(t.toLowerCase()));
  return i >= 0 ? i + 1 : undefined;
};
export const hms = (t: string | undefined): number | undefined =>
  t === undefined ? undefined : HMS[t.toLowerCase()];
export const ampm = (t: string | undefined): number | undefined =>
  t === undefined ? undefined : AMPM[t.toLowerCase()];
export const jump = (t: string | undefined): boolean => t !== undefined && JUMP.has(t.toLowerCase());

export class DateError extends Error {}

/** dateutil's lexer: words, numbers (with `.`/`,` runs split again later), single others. */
export function lex(text: string): string[] {
  const out: string[] = [];
  const chars = [...text].filter((c) => c !== '\0');
  let i = 0;
  while (i < chars.length) {
    const first = chars[i] as string;
    let token = first;
    let state: '' | 'a' | '0' | 'a.' | '0.' = '';
    let seenLetters = false;
    i++;
    if (isAlpha(first)) state = 'a';
    else if (isDigit(first)) state = '0';
    else {
      out.push(isSpace(first) ? ' ' : first);
      continue;
    }
    while (i < chars.length) {
      const c = chars[i] as string;
      let take = false;
      if (state === 'a') {
        seenLetters = true;
        if (isAlpha(c)) take = true;
        else if (c === '.') [take, state] = [true, 'a.'];
      } else if (state === '0') {
        if (isDigit(c)) take = true;
        else if (c === '.' || (c === ',' && token.length >= 2)) [take, state] = [true, '0.'];
      } else if (state === 'a.') {
        seenLetters = true;
        if (c === '.' || isAlpha(c)) take = true;
        else if (isDigit(c) && token.endsWith('.')) [take, state] = [true, '0.'];
      } else if (c === '.' || isDigit(c)) take = true;
      else if (isAlpha(c) && token.endsWith('.')) [take, state] = [true, 'a.'];
      if (!take) break;
      token += c;
      i++;
    }
    const dots = token.split('.').length - 1;
    if ((state === 'a.' || state === '0.') && (seenLetters || dots > 1 || /[.,]$/.test(token))) {
      const parts = token.split(/([.,])/).filter((p) => p !== '');
      out.push(...parts);
      continue;
    }
    if (state === '0.' && dots === 0) token = token.replace(/,/g, '.');
    out.push(token);
  }
  return out;
}

// A decimal like Python's Decimal(str): digits only (unicode digits count), finite.
export function toDecimal(text: string): number {
  const ascii = asciiDigits(text);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(ascii)) throw new DateError('decimal');
  return Number(ascii);
}
// Python's int()/Decimal() read every Unicode decimal digit; map them to ASCII first.
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (d) => {
    const cp = d.codePointAt(0) as number;
    let zero = cp;
    while (zero > cp - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    return String(cp - zero);
  });
}
export const isDigitString = (t: string): boolean => t.length > 0 && [...t].every(isDigit);
export const toInt = (t: string): number => {
  if (!isDigitString(t.replace(/^[+-]/, '')) && !/^[+-]?\d+$/.test(t)) throw new DateError('int');
  if ([...t].some((c) => /[\u00b2\u00b3\u00b9\u2070-\u2079]/.test(c))) throw new DateError('int');
  return Number(asciiDigits(t));
};
export const floatOk = (t: string): boolean =>
  /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(asciiDigits(t)) || /^[+-]?(nan|inf|infinity)$/i.test(t);

export class Ymd {
  values: number[] = [];
  centurySpecified = false;
  y?: number;
  m?: number;
  d?: number;

  append(val: string | number, label?: 'Y' | 'M' | 'D'): void {
    let lab = label;
    if (typeof val === 'string') {
      if (isDigitString(val) && val.length > 2) [this.centurySpecified, lab] = [true, 'Y'];
    } else if (val > 100) [this.centurySpecified, lab] = [true, 'Y'];
    this.values.push(typeof val === 'string' ? toInt(val) : Math.trunc(val));
    const idx = this.values.length - 1;
    if (lab === 'M') {
      if (this.m !== undefined) throw new DateError('month set');
      this.m = idx;
    } else if (lab === 'D') {
      if (this.d !== undefined) throw new DateError('day set');
      this.d = idx;
    } else if (lab === 'Y') {
      if (this.y !== undefined) throw new DateError('year set');
      this.y = idx;
    }
  }

  couldBeDay(value: number): boolean {
    if (this.d !== undefined) return false;
    if (this.m === undefined) return value >= 1 && value <= 31;
    const m = this.values[this.m] as number;
    const y = this.y === undefined ? 2000 : (this.values[this.y] as number);
    return value >= 1 && value <= daysIn(y, m);
  }

  resolve(): [number?, number?, number?] {
    const v = this.values;
    const ids: [string, number][] = (
      [
        ['y', this.y],
        ['m', this.m],
        ['d', this.d],
      ] as [string, number | undefined][]
    ).filter((e): e is [string, number] => e[1] !== undefined);
    if ((v.length === ids.length && v.length > 0) || (v.length === 3 && ids.length === 2)) {
      if (v.length === 3 && ids.length === 2) {
        const missing = [0, 1, 2].find((x) => !ids.some(([, i]) => i === x)) as number;
        const key = ['y', 'm', 'd'].find((k) => !ids.some(([n]) => n === k)) as string;
        ids.push([key, missing]);
      }
      const get = (k: string): number | undefined => {
        const e = ids.find(([n]) => n === k);
        return e ? v[e[1]] : undefined;
      };
      return [get('y'), get('m'), get('d')];
    }
    const [a, b, c] = v as [number, number, number];
    const mi = this.m;
    if (v.length > 3) throw new DateError('too many');
    if (v.length === 1 || (mi !== undefined && v.length === 2)) {
      let monthValue: number | undefined;
      let other: number;
      if (mi !== undefined) {
        monthValue = v[mi];
        other = v[mi - 1] ?? (v[v.length - 1] as number); // Python's v[-1] when mi == 0
      } else other = a;
      if (v.length > 1 || mi === undefined)
        return other > 31 ? [other, monthValue, undefined] : [undefined, monthValue, other];
      return [undefined, monthValue, undefined];
    }
    if (v.length === 2) {
      if (a > 31) return [a, b, undefined];
      if (b > 31) return [b, a, undefined];
      return [undefined, a, b];
    }
    if (v.length === 3) {
      if (mi === 0) return b > 31 ? [b, a, c] : [c, a, b];
      if (mi === 1) return a > 31 ? [a, b, c] : [c, b, a];
      if (mi === 2) return b > 31 ? [b, c, a] : [a, c, b];
      if (a > 31 || this.y === 0) return [a, b, c];
      if (a > 12) return [c, b, a];
      return [c, a, b];
    }
    return [undefined, undefined, undefined];
  }
}

export interface Result {
  year?: number;
  month?: number;
  day?: number;
  weekday?: number;
  hour?: number;
  minute?: number;
  second?: number;
  microsecond?: number;
  tzname?: string;
  tzoffset?: number;
  ampm?: number;
}

export function daysIn(year: number, m: number): number {
  return new Date(Date.UTC(year, m, 0)).getUTCDate() || 31;
}
